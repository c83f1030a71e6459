/**
 * The "[scheme:]name[:port]" names of proxy requests (pods/p:8080/proxy, services/https:s:443/proxy), split as
 * apimachinery's utilnet.SplitSchemeNamePort does: at most three parts, a non-empty name, scheme http, https or none.
 */
export interface SchemeNamePort {
  scheme: "" | "http" | "https";
  name: string;
  port: string;
}

export function splitSchemeNamePort(id: string): SchemeNamePort | undefined {
  const parts = id.split(":");
  let scheme = "";
  let name: string;
  let port = "";
  if (parts.length === 1) [name] = parts as [string];
  else if (parts.length === 2) [name, port] = parts as [string, string];
  else if (parts.length === 3) [scheme, name, port] = parts as [string, string, string];
  else return undefined;
  if (name === "" || (scheme !== "" && scheme !== "http" && scheme !== "https")) return undefined;
  return { scheme: scheme as SchemeNamePort["scheme"], name, port };
}
