/**
 * The parts of Go's net/url that kube's CEL URL library uses: url.ParseRequestURI (an absolute URI or an absolute
 * path, no fragment), URL.Hostname, URL.Port, URL.EscapedPath and URL.Query, with Go's error texts.
 */
export interface GoURL {
  scheme: string;
  opaque: string;
  host: string;
  path: string;
  rawQuery: string;
}

const SCHEME = /^([a-zA-Z][a-zA-Z0-9+.-]*):/;

function urlError(raw: string, why: string): Error {
  return new Error(`parse ${JSON.stringify(raw)}: ${why}`);
}

function unescapePath(raw: string, text: string): string {
  const bad = /%(?![0-9a-fA-F]{2})(.{0,2})/.exec(text);
  if (bad) throw urlError(raw, `invalid URL escape ${JSON.stringify(bad[0])}`);
  return decodeURIComponent(text);
}

function checkHost(raw: string, host: string): void {
  const colon = host.startsWith("[") ? host.indexOf(":", host.indexOf("]")) : host.lastIndexOf(":");
  if (host.startsWith("[") && !host.includes("]")) throw urlError(raw, "missing ']' in host");
  if (colon >= 0 && !/^:\d*$/.test(host.slice(colon))) {
    throw urlError(raw, `invalid port ${JSON.stringify(host.slice(colon))} after host`);
  }
}

/** url.ParseRequestURI. */
export function parseRequestURI(raw: string): GoURL {
  if (raw === "") throw urlError(raw, "empty url");
  let rest = raw;
  let scheme = "";
  const match = SCHEME.exec(rest);
  if (match) {
    scheme = match[1].toLowerCase();
    rest = rest.slice(match[0].length);
  } else if (rest.startsWith(":")) throw urlError(raw, "missing protocol scheme");
  let rawQuery = "";
  const question = rest.indexOf("?");
  if (question >= 0) [rest, rawQuery] = [rest.slice(0, question), rest.slice(question + 1)];
  if (!rest.startsWith("/")) {
    if (scheme !== "") return { scheme, opaque: rest, host: "", path: "", rawQuery };
    throw urlError(raw, "invalid URI for request");
  }
  let host = "";
  if (scheme !== "" && rest.startsWith("//")) {
    const end = rest.indexOf("/", 2);
    const authority = end < 0 ? rest.slice(2) : rest.slice(2, end);
    rest = end < 0 ? "" : rest.slice(end);
    host = authority.slice(authority.lastIndexOf("@") + 1);
    checkHost(raw, host);
  }
  return { scheme, opaque: "", host, path: unescapePath(raw, rest), rawQuery };
}

function splitHostPort(host: string): [string, string] {
  if (host.startsWith("[")) {
    const close = host.indexOf("]");
    const after = host.slice(close + 1);
    return [host.slice(1, close), after.startsWith(":") ? after.slice(1) : ""];
  }
  const colon = host.lastIndexOf(":");
  return colon < 0 ? [host, ""] : [host.slice(0, colon), host.slice(colon + 1)];
}

export function hostname(url: GoURL): string {
  return splitHostPort(url.host)[0];
}

export function port(url: GoURL): string {
  return splitHostPort(url.host)[1];
}

/** URL.EscapedPath: the path with the characters Go escapes in paths percent-encoded. */
export function escapedPath(url: GoURL): string {
  return url.path.replace(/[^A-Za-z0-9\-._~!$&'()*+,;=:@/]/gu, (c) => encodeURIComponent(c));
}

/** URL.Query: values per key in order; `+` is a space, pairs split on `&`. */
export function query(url: GoURL): Map<string, string[]> {
  const values = new Map<string, string[]>();
  for (const pair of url.rawQuery.split("&")) {
    if (pair === "" || pair.includes(";")) continue;
    const eq = pair.indexOf("=");
    const decode = (s: string) => decodeURIComponent(s.replaceAll("+", " "));
    try {
      const key = decode(eq < 0 ? pair : pair.slice(0, eq));
      const value = eq < 0 ? "" : decode(pair.slice(eq + 1));
      values.set(key, [...(values.get(key) ?? []), value]);
    } catch {
      // url.ParseQuery skips pairs with bad escapes (and reports the first error, which Query drops).
    }
  }
  return values;
}
