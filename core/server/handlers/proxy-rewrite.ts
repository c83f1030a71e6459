/**
 * What kube's proxy Transport (k8s.io/apimachinery/pkg/util/proxy/transport.go, wrapped around services/proxy
 * and pods/proxy by UpgradeAwareHandler.defaultProxyTransport) changes on the way: the request gains
 * X-Forwarded-Uri, a redirect to the backend's own paths is rewritten under the proxy path (rewriteURL), and
 * corsRemovingTransport drops the backend's CORS headers. Links inside HTML bodies are not rewritten here.
 */
const CORS_HEADERS = [
  "access-control-allow-credentials",
  "access-control-allow-headers",
  "access-control-allow-methods",
  "access-control-allow-origin",
];

/** path.Join of the proxy prefix and the proxied path, keeping a trailing slash. */
export function forwardedUri(pathPrepend: string, proxiedPath: string): string {
  const joined = `${pathPrepend}/${proxiedPath}`.replace(/\/+/g, "/").replace(/\/$/, "");
  return proxiedPath.endsWith("/") ? `${joined}/` : joined;
}

/** rewriteURL for a Location header: same-host absolute paths move under the proxy path; anything else stays. */
export function rewriteLocation(location: string, pathPrepend: string, backendHost: string): string {
  let url: URL;
  const relativeToHost = location.startsWith("/") && !location.startsWith("//");
  try {
    url = new URL(location, "http://placeholder.invalid");
  } catch {
    return location;
  }
  if (!relativeToHost && url.host !== backendHost) return location;
  if (url.pathname.startsWith(pathPrepend)) return location;
  const path = forwardedUri(pathPrepend, url.pathname);
  const rest = `${path}${url.search}${url.hash}`;
  return relativeToHost ? rest : `${url.protocol}//${url.host}${rest}`;
}

export function adjustProxiedResponse(headers: Headers, pathPrepend: string, backendHost: string): void {
  for (const name of CORS_HEADERS) headers.delete(name);
  const location = headers.get("location");
  if (location) headers.set("location", rewriteLocation(location, pathPrepend, backendHost));
}
