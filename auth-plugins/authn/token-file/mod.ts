/** Static token file (spec 5.2, --token-auth-file): read once at start; tokens live until restart. */
import { readFile } from "node:fs/promises";
import { audienceAgnostic } from "../../../core/auth/audience-agnostic.ts";
import { apiAudiences } from "../../../core/auth/authentication.ts";
import { defineAuthenticator } from "../../../plugins/sdk.ts";
import { parseTokenFile, tokenFileAuthenticator } from "./token-file.ts";

export default defineAuthenticator(async ({ config }) => {
  const tokens = parseTokenFile(await readFile(config.tokenAuthFile, "utf8"), config.tokenAuthFile);
  return audienceAgnostic(tokenFileAuthenticator(tokens), apiAudiences(config));
});
