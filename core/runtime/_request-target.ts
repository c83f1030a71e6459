/**
 * Which request-targets Go's net/http reads (readRequest's url.ParseRequestURI, net/url's parse with viaRequest):
 * a target it refuses is conn.serve's plain "400 Bad Request" before any handler runs.
 */

// deno-lint-ignore no-control-regex -- control bytes are what the check looks for
const CONTROL_BYTE = /[\x00-\x1f\x7f]/;
/** What sends a target past the usual case: a control byte, or a "%" (whose escape must be checked). */
// deno-lint-ignore no-control-regex -- control bytes are what the check looks for
const CONTROL_BYTE_OR_ESCAPE = /[\x00-\x1f\x7f%]/;
/** A "%" not followed by two hex digits (unescape's EscapeError). */
const BAD_ESCAPE = /%(?![0-9A-Fa-f]{2})/;
/** validUserinfo's characters. */
const USERINFO = /^[A-Za-z0-9\-._:~!$&'()*+,;=%@]*$/;
/** What unescape lets stand unescaped in a host (shouldEscape in encodeHost mode), and bytes past ASCII. */
const HOST_BYTES = /^(?:[A-Za-z0-9\-_.~!$&'()*+,;=:[\]<>"\x80-\uffff]|%[89A-Fa-f][0-9A-Fa-f]|%25)*$/;
const SLASH = 47;
/** validOptionalPort: empty, or ":" and digits. */
const OPTIONAL_PORT = /^(?::[0-9]*)?$/;

/** Whether url.ParseRequestURI accepts `target`; a CONNECT's authority form is read as Go reads it, after "http://". */
export function parsesAsRequestUri(method: string, target: string): boolean {
  // The usual target, an absolute path without control bytes or escapes, passes every check below (one regular
  // expression for the two and the slices: ~70 ns of a head's parse in a loop).
  if (target.charCodeAt(0) === SLASH && !CONTROL_BYTE_OR_ESCAPE.test(target)) return true;
  const raw = method === "CONNECT" && !target.startsWith("/") ? `http://${target}` : target;
  if (raw === "" || CONTROL_BYTE.test(raw)) return false;
  if (raw === "*") return true;
  const colon = schemeEnd(raw);
  if (colon === 0) return false;
  const hasScheme = colon > 0;
  const rest = hasScheme ? raw.slice(colon + 1) : raw;
  const question = rest.indexOf("?");
  const path = question < 0 ? rest : rest.slice(0, question);
  // A scheme with a rootless path is opaque; without a scheme only the absolute path is a request's.
  if (!path.startsWith("/")) return hasScheme;
  if (!hasScheme || !path.startsWith("//")) return !BAD_ESCAPE.test(path);
  const slash = path.indexOf("/", 2);
  const authority = slash < 0 ? path.slice(2) : path.slice(2, slash);
  return validAuthority(authority) && (slash < 0 || !BAD_ESCAPE.test(path.slice(slash)));
}

/** getScheme: where the scheme's ":" is, -1 when the target starts with none (0: "missing protocol scheme"). */
function schemeEnd(raw: string): number {
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if ((c >= "a" && c <= "z") || (c >= "A" && c <= "Z")) continue;
    if ((c >= "0" && c <= "9") || c === "+" || c === "-" || c === ".") {
      if (i === 0) return -1;
      continue;
    }
    return c === ":" ? i : -1;
  }
  return -1;
}

/** parseAuthority: userinfo (validUserinfo, then unescaped) before the last "@", then parseHost. */
function validAuthority(authority: string): boolean {
  const at = authority.lastIndexOf("@");
  if (at >= 0) {
    const userinfo = authority.slice(0, at);
    if (!USERINFO.test(userinfo) || BAD_ESCAPE.test(userinfo)) return false;
  }
  return validHost(authority.slice(at + 1));
}

/** parseHost: an IP literal needs its "]", a port is digits; the rest unescapes as a host (an IPv6 zone only as escapes). */
function validHost(host: string): boolean {
  let name = host;
  if (host.startsWith("[")) {
    const close = host.lastIndexOf("]");
    if (close < 0 || !OPTIONAL_PORT.test(host.slice(close + 1))) return false;
    const zone = host.indexOf("%25");
    if (zone >= 0 && zone < close) {
      if (BAD_ESCAPE.test(host.slice(zone, close))) return false;
      name = host.slice(0, zone) + host.slice(close);
    }
  } else {
    const colon = host.lastIndexOf(":");
    if (colon >= 0 && !OPTIONAL_PORT.test(host.slice(colon))) return false;
  }
  return HOST_BYTES.test(name);
}
