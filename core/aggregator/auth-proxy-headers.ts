/**
 * The user as an authenticating front proxy names it (client-go's SetAuthProxyHeaders, spec 5.5): X-Remote-User,
 * one X-Remote-Group per group, X-Remote-Extra-<key> per extra value with the key percent-encoded.
 */
import type { UserInfo } from "../auth/user.ts";

const EXTRA_PREFIX = "x-remote-extra-";
// RFC 7230 token characters may stay as they are in a header name; '%' is escaped so decoding is unambiguous.
const TOKEN_CHARACTER = /^[!#$&'*+\-.^_`|~0-9A-Za-z]$/;

function escapeHeaderKey(key: string): string {
  let escaped = "";
  for (const byte of new TextEncoder().encode(key)) {
    const char = String.fromCharCode(byte);
    escaped += TOKEN_CHARACTER.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return escaped;
}

/** Replaces any X-Remote-* headers the caller sent with the authenticated user's. */
export function setAuthProxyHeaders(headers: Headers, user: UserInfo): void {
  const stale: string[] = [];
  headers.forEach((_value, name) => {
    if (name === "x-remote-user" || name === "x-remote-group" || name.startsWith(EXTRA_PREFIX)) stale.push(name);
  });
  for (const name of stale) headers.delete(name);
  headers.set("X-Remote-User", user.username);
  for (const group of user.groups) headers.append("X-Remote-Group", group);
  for (const [key, values] of Object.entries(user.extra ?? {})) {
    for (const value of values) headers.append(`X-Remote-Extra-${escapeHeaderKey(key)}`, value);
  }
}
