/**
 * Static bearer tokens from --token-auth-file (kube's tokenfile.NewCSV): CSV records of token, user name, uid
 * and optionally one column of comma-separated groups; later columns are ignored, a later duplicate token
 * wins, and records with an empty token are skipped.
 */
import type { TokenAuthenticator } from "../../../core/auth/authenticator.ts";
import type { UserInfo } from "../../../core/auth/user.ts";
import * as v from "valibot";
import { ConfigFileError } from "../../../core/config/mod.ts";
import { parseCsv } from "./_csv.ts";

const TOKEN_RECORD = v.tupleWithRest([v.string(), v.string(), v.string()], v.string());

export function parseTokenFile(text: string, path: string): Map<string, UserInfo> {
  const tokens = new Map<string, UserInfo>();
  for (const record of parseCsv(text)) {
    const row = v.safeParse(TOKEN_RECORD, record);
    if (!row.success) {
      throw new ConfigFileError(`token file '${path}' must have at least 3 columns (token, user name, user uid), found ${record.length}`);
    }
    const [token, username, uid, groups] = row.output;
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
