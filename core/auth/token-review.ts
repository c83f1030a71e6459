/**
 * TokenReview's answer (kube's pkg/registry/authentication/tokenreview): the token is checked as a bearer token
 * of a request, for the audiences the review names or else the server's own. A token nobody accepts is
 * "invalid bearer token"; an accepted token must be valid for one of the audiences asked for.
 */
import { newInternalError } from "../api/errors.ts";
import type { TokenAuthenticator } from "./authenticator.ts";
import { withAuthenticatedGroup } from "./user.ts";

export interface TokenReviewSpec {
  token: string;
  audiences?: string[];
}

/** The status as kube serializes it: false, empty and absent fields are left out, `user` is always there. */
export interface TokenReviewStatus {
  authenticated?: true;
  user: { username?: string; uid?: string; groups?: string[]; extra?: Record<string, string[]> };
  audiences?: string[];
  error?: string;
}

export async function reviewToken(
  tokens: TokenAuthenticator,
  spec: TokenReviewSpec,
  serverAudiences: string[],
): Promise<TokenReviewStatus> {
  const audiences = spec.audiences && spec.audiences.length > 0 ? spec.audiences : serverAudiences;
  const result = await tokens.authenticateToken(spec.token, audiences);
  if (result.kind === "not-mine") return { user: {}, error: "invalid bearer token" };
  if (result.kind === "error") return { user: {}, error: result.message };
  const granted = result.audiences ?? [];
  if (audiences.length > 0 && !granted.some((audience) => audiences.includes(audience))) {
    throw newInternalError("error validating audiences");
  }
  const user = withAuthenticatedGroup(result.user);
  const status: TokenReviewStatus = { authenticated: true, user: { username: user.username } };
  if (user.uid) status.user.uid = user.uid;
  if (user.groups.length > 0) status.user.groups = user.groups;
  if (user.extra && Object.keys(user.extra).length > 0) status.user.extra = user.extra;
  if (granted.length > 0) status.audiences = granted;
  return status;
}
