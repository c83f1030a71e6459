/**
 * Static bearer tokens from --token-auth-file (kube's tokenfile.NewCSV): CSV records of token, user name, uid
 * and optionally one column of comma-separated groups; later columns are ignored, a later duplicate token
 * wins, and records with an empty token are skipped.
 */
import type { TokenAuthenticator } from "../../../core/auth/authenticator.ts";
import type { UserInfo } from "../../../core/auth/user.ts";
import { parseCsv } from "./_csv.ts";

export function parseTokenFile(text: string, path: string): Map<string, UserInfo> {
  const tokens = new Map<string, UserInfo>();
  for (const record of parseCsv(text)) {
    if (record.length < 3) throw new Error(`token file '${path}' must have at least 3 columns (token, user name, user uid), found ${record.length}`);
    const [token, username, uid, groups] = record as [string, string, string, string?];
    if (token === "") continue;
    tokens.set(token, { username, uid, groups: groups === undefined ? [] : groups.split(",") });
  }
  return tokens;
}

export function tokenFileAuthenticator(tokens: ReadonlyMap<string, UserInfo>): TokenAuthenticator {
  return {
    authenticateToken(token) {
      const user = tokens.get(token);
      return Promise.resolve(user ? { kind: "user", user } : { kind: "not-mine" });
    },
  };
}
