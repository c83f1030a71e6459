/**
 * OpenID Connect ID tokens (spec 5.3): tokens from --oidc-issuer-url for --oidc-client-id, signed with one of
 * --oidc-signing-algs by a key of the issuer's JWKS. A token from another issuer is not ours.
 */
import { readFile } from "node:fs/promises";
import { decodeJwt, errors, type JWTPayload, jwtVerify } from "jose";
import { apiAudiences, audienceAgnostic, defineAuthenticator } from "../../../plugins/sdk.ts";
import { userFromClaims } from "./claims.ts";
import { IssuerKeys } from "./provider.ts";

function issuerOf(token: string): unknown {
  try {
    return decodeJwt(token).iss;
  } catch {
    return undefined;
  }
}

export default defineAuthenticator(async ({ config }) => {
  const issuerUrl = config.oidcIssuerUrl;
  if (!issuerUrl.startsWith("https://")) throw new Error(`--oidc-issuer-url must be an https URL, got ${issuerUrl}`);
  if (config.oidcClientId === "") throw new Error("--oidc-client-id is required with --oidc-issuer-url");
  const keys = new IssuerKeys(issuerUrl, config.oidcCaFile ? await readFile(config.oidcCaFile, "utf8") : undefined);
  const rules = {
    issuerUrl,
    usernameClaim: config.oidcUsernameClaim,
    usernamePrefix: config.oidcUsernamePrefix,
    groupsClaim: config.oidcGroupsClaim,
    groupsPrefix: config.oidcGroupsPrefix,
    requiredClaims: config.oidcRequiredClaim,
  };
  const verify = async (token: string, refresh: boolean): Promise<JWTPayload> => {
    const options = { issuer: issuerUrl, audience: config.oidcClientId, algorithms: config.oidcSigningAlgs };
    return (await jwtVerify(token, await keys.get(refresh), options)).payload;
  };
  // ID tokens are for --oidc-client-id, not for the API audiences: answer as kube's audience-agnostic wrapper does.
  return audienceAgnostic({
    async authenticateToken(token) {
      if (issuerOf(token) !== issuerUrl) return { kind: "not-mine" };
      let payload: JWTPayload;
      try {
        payload = await verify(token, false).catch((
          e,
        ) => (e instanceof errors.JWKSNoMatchingKey ? verify(token, true) : Promise.reject(e)));
      } catch (e) {
        return { kind: "error", message: `oidc: verify token: ${(e as Error).message}` };
      }
      const user = userFromClaims(payload, rules);
      return typeof user === "string" ? { kind: "error", message: user } : { kind: "user", user };
    },
  }, apiAudiences(config));
});
