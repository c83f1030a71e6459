/** A webhook's clientConfig: exactly one of an https URL or a service reference (apiserver's util/webhook validation). */
import type { FieldError } from "../../api/errors.ts";
import { isDNS1123Subdomain } from "../../api/names.ts";
import { invalid, isSet, record, required, text } from "./_field.ts";
import { isValidPortNum } from "./_ports.ts";

const FORM = "; desired format: https://host[/path]";

export function validateWebhookURL(raw: string, path: string): FieldError[] {
  // Go's url.Parse reads a scheme-less text as a bare path: no scheme and no host.
  if (!/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(raw)) {
    return [invalid(path, "", `'https' is the only allowed URL scheme${FORM}`), invalid(path, "", `host must be specified${FORM}`)];
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return [required(path, `url must be a valid URL: parse ${JSON.stringify(raw)}: invalid URI for request${FORM}`)];
  }
  const errors: FieldError[] = [];
  const scheme = url.protocol.replace(/:$/, "");
  if (scheme !== "https") errors.push(invalid(path, scheme, `'https' is the only allowed URL scheme${FORM}`));
  if (!url.host) errors.push(invalid(path, url.host, `host must be specified${FORM}`));
  if (url.username || url.password || raw.includes("@")) {
    const user = url.password ? `${url.username}:${url.password}` : url.username;
    errors.push(invalid(path, user, "user information is not permitted in the URL"));
  }
  if (url.hash.length > 1) errors.push(invalid(path, url.hash.slice(1), "fragments are not permitted in the URL"));
  if (url.search.length > 1) errors.push(invalid(path, url.search.slice(1), "query parameters are not permitted in the URL"));
  return errors;
}

function validateServicePath(urlPath: string, at: string): FieldError[] {
  if (urlPath === "/" || urlPath === "") return [];
  if (urlPath === "//") return [invalid(at, urlPath, "segment[0] may not be empty")];
  const errors: FieldError[] = [];
  if (!urlPath.startsWith("/")) errors.push(invalid(at, urlPath, "must start with a '/'"));
  const steps = urlPath.slice(1).replace(/\/$/, "").split("/");
  steps.forEach((step, i) => {
    if (step === "") errors.push(invalid(at, urlPath, `segment[${i}] may not be empty`));
    else for (const m of isDNS1123Subdomain(step)) errors.push(invalid(at, urlPath, `segment[${i}]: ${m}`));
  });
  return errors;
}

export function validateWebhookService(serviceValue: unknown, path: string): FieldError[] {
  const service = record(serviceValue);
  const errors: FieldError[] = [];
  if (!text(service.name)) errors.push(required(`${path}.name`, "service name is required"));
  if (!text(service.namespace)) errors.push(required(`${path}.namespace`, "service namespace is required"));
  const port = typeof service.port === "number" ? service.port : 443;
  const portErrors = isValidPortNum(port);
  if (portErrors.length > 0) errors.push(invalid(`${path}.port`, port, `port is not valid: ${portErrors.join(", ")}`));
  if (isSet(service.path)) errors.push(...validateServicePath(text(service.path), `${path}.path`));
  return errors;
}

export function validateClientConfig(configValue: unknown, path: string): FieldError[] {
  const config = record(configValue);
  if (isSet(config.url) === isSet(config.service)) return [required(path, "exactly one of url or service is required")];
  return isSet(config.url)
    ? validateWebhookURL(text(config.url), `${path}.url`)
    : validateWebhookService(config.service, `${path}.service`);
}
