/**
 * Service account tokens (spec 5.2): JWTs signed with the service account keys, for one of the
 * --service-account-issuer issuers (or legacy secret tokens). Bound tokens stop working when their account or
 * bound object is deleted; legacy ones when their Secret is, unless --service-account-lookup=false.
 */
import { deepFreeze } from "../../../core/api/deep-freeze.ts";
import { apiAudiences } from "../../../core/auth/authentication.ts";
import { serviceAccountUser } from "../../../core/auth/service-account/claims.ts";
import { loadServiceAccountKeys } from "../../../core/auth/service-account/keys.ts";
import { type Authentication, defineAuthenticator } from "../../../plugins/sdk.ts";
import { withServiceAccountCache } from "./account-cache.ts";
import { revocationProblem } from "./lookup.ts";
import { checkServiceAccountJwt, type JwtCheck, type JwtCheckOptions } from "./verify.ts";

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

function outcome(problem: string | undefined, answer: Authentication): Authentication {
  return problem ? { kind: "error", message: problem } : answer;
}

function outcomeLater(problem: Promise<string | undefined>, answer: Authentication): Promise<Authentication> {
  return problem.then((late) => outcome(late, answer));
}

export default defineAuthenticator(async ({ config, client }) => {
  const keys = await loadServiceAccountKeys(config);
  const implicitAudiences = apiAudiences(config);
  const objects = withServiceAccountCache(client);
  // The server asks for the same audiences on every request (TokenReview for others): their options are made once.
  let options: JwtCheckOptions = { issuers: config.serviceAccountIssuer, implicitAudiences, audiences: implicitAudiences };
  const optionsFor = (audiences: string[]) =>
    options.audiences === audiences ? options : options = { issuers: config.serviceAccountIssuer, implicitAudiences, audiences };

  function afterCheck(checked: JwtCheck, token: string): Authentication | Promise<Authentication> {
    if (checked.kind !== "valid") return checked;
    const answer = answerFor(checked);
    if (checked.claims.legacy && !config.serviceAccountLookup) return answer;
    // kube's validator runs on every request: the objects behind a token are never taken from a past answer.
    const problem = revocationProblem(objects, checked.claims, token, Date.now(), 0);
    return problem instanceof Promise ? outcomeLater(problem, answer) : outcome(problem, answer);
  }

  function checkedLater(check: Promise<JwtCheck>, token: string): Promise<Authentication> {
    return check.then((checked) => afterCheck(checked, token));
  }

  // At once, without a promise or a closure, for a token verified before whose objects are read from memory.
  return {
    authenticateToken(token, audiences) {
      const check = checkServiceAccountJwt(token, keys.verifying, optionsFor(audiences));
      return check instanceof Promise ? checkedLater(check, token) : afterCheck(check, token);
    },
  };
});
