/**
 * Service account tokens (spec 5.2): JWTs signed with the service account keys, for one of the
 * --service-account-issuer issuers (or legacy secret tokens). Bound tokens stop working when their account or
 * bound object is deleted; legacy ones when their Secret is, unless --service-account-lookup=false.
 */
import { deepFreeze } from "../../../core/api/deep-freeze.ts";
import { thenOrNow } from "../../../core/api/then-or-now.ts";
import { apiAudiences } from "../../../core/auth/authentication.ts";
import { serviceAccountUser } from "../../../core/auth/service-account/claims.ts";
import { loadServiceAccountKeys } from "../../../core/auth/service-account/keys.ts";
import { type Authentication, defineAuthenticator } from "../../../plugins/sdk.ts";
import { withServiceAccountCache } from "./account-cache.ts";
import { revocationProblem } from "./lookup.ts";
import { checkServiceAccountJwt, type JwtCheck } from "./verify.ts";

type ValidCheck = Extract<JwtCheck, { kind: "valid" }>;

/**
 * The answer for a valid check, made once per check: checks are kept per signed token and audience list
 * (verify.ts), so a client sending one token is handed one frozen user rather than a new one per request.
 */
const answers = new WeakMap<ValidCheck, Authentication>();

function answerFor(checked: ValidCheck): Authentication {
  let answer = answers.get(checked);
  if (!answer) {
    const user = serviceAccountUser(checked.claims);
    answers.set(checked, answer = deepFreeze<Authentication>({ kind: "user", user, audiences: checked.audiences }));
  }
  return answer;
}

export default defineAuthenticator(async ({ config, client }) => {
  const keys = await loadServiceAccountKeys(config);
  const implicitAudiences = apiAudiences(config);
  const objects = withServiceAccountCache(client);
  // At once, without a promise, for a token verified before whose objects are read from memory.
  return {
    authenticateToken(token, audiences) {
      const check = checkServiceAccountJwt(token, keys.verifying, { issuers: config.serviceAccountIssuer, implicitAudiences, audiences });
      return thenOrNow(check, (checked): Authentication | Promise<Authentication> => {
        if (checked.kind !== "valid") return checked;
        const answer = answerFor(checked);
        if (checked.claims.legacy && !config.serviceAccountLookup) return answer;
        // kube's validator runs on every request: the objects behind a token are never taken from a past answer.
        return thenOrNow(
          revocationProblem(objects, checked.claims, token),
          (problem) => problem ? { kind: "error", message: problem } : answer,
        );
      });
    },
  };
});
