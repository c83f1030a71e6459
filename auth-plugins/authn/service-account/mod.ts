/**
 * Service account tokens (spec 5.2): JWTs signed with the service account keys, for one of the
 * --service-account-issuer issuers (or legacy secret tokens). Bound tokens stop working when their account or
 * bound object is deleted; legacy ones when their Secret is, unless --service-account-lookup=false.
 */
import { apiAudiences } from "../../../core/auth/authentication.ts";
import { serviceAccountUser } from "../../../core/auth/service-account/claims.ts";
import { loadServiceAccountKeys } from "../../../core/auth/service-account/keys.ts";
import { defineAuthenticator } from "../../../plugins/sdk.ts";
import { withServiceAccountCache } from "./account-cache.ts";
import { revocationProblem } from "./lookup.ts";
import { checkServiceAccountJwt } from "./verify.ts";

export default defineAuthenticator(async ({ config, client }) => {
  const keys = await loadServiceAccountKeys(config);
  const implicitAudiences = apiAudiences(config);
  const objects = withServiceAccountCache(client);
  return {
    async authenticateToken(token, audiences) {
      const check = await checkServiceAccountJwt(token, keys.verifying, {
        issuers: config.serviceAccountIssuer,
        implicitAudiences,
        audiences,
      });
      if (check.kind !== "valid") return check;
      if (!check.claims.legacy || config.serviceAccountLookup) {
        const problem = await revocationProblem(objects, check.claims, token);
        if (problem) return { kind: "error", message: problem };
      }
      return { kind: "user", user: serviceAccountUser(check.claims), audiences: check.audiences };
    },
  };
});
