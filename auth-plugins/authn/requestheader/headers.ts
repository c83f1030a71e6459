/**
 * The user an authenticating proxy names in request headers (kube's requestheader authenticator): the first
 * non-empty username header, every value of every group header, and extra keys from prefixed headers
 * (prefix removed, lower-cased, percent-decoded).
 */
import type { UserInfo } from "../../../plugins/sdk.ts";

export interface HeaderNames {
  usernameHeaders: string[];
  groupHeaders: string[];
  extraHeaderPrefixes: string[];
}

// fetch's Headers joins repeated header lines with ", ", so each line is one part again.
function values(headers: Headers, name: string): string[] {
  const joined = headers.get(name);
  return joined === null ? [] : joined.split(", ").filter((v) => v !== "");
}

function decodeExtraKey(raw: string): string {
  try {
    return decodeURIComponent(raw).toLowerCase();
  } catch {
    return raw.toLowerCase();
  }
}

export function userFromHeaders(headers: Headers, names: HeaderNames): UserInfo | undefined {
  const username = names.usernameHeaders.map((name) => headers.get(name)?.trim() ?? "").find((value) => value !== "");
  if (!username) return undefined;
  const groups = names.groupHeaders.flatMap((name) => values(headers, name));
  const extra: Record<string, string[]> = {};
  const prefixes = names.extraHeaderPrefixes.map((p) => p.toLowerCase());
  headers.forEach((_value, name) => {
    const prefix = prefixes.find((p) => name.startsWith(p));
    if (!prefix || name.length === prefix.length) return;
    const key = decodeExtraKey(name.slice(prefix.length));
    extra[key] = [...(extra[key] ?? []), ...values(headers, name)];
  });
  return Object.keys(extra).length > 0 ? { username, groups, extra } : { username, groups };
}
