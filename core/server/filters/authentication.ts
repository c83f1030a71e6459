/**
 * The authentication step of the chain: the union decides; invalid credentials are 401 and never become
 * anonymous; a request with no credentials is anonymous only when anonymous access is on (spec 5.1, 5.7).
 */
import { newUnauthorized } from "../../api/errors.ts";
import type { Authentication, AuthenticationRequest, Authenticator } from "../../auth/authenticator.ts";
import { ANONYMOUS, type UserInfo, withAuthenticatedGroup } from "../../auth/user.ts";

/** The user, at once when the authenticators answered at once; a 401 is thrown (or the promise rejects with it). */
export function authenticateRequest(
  authenticator: Authenticator,
  request: AuthenticationRequest,
  anonymous: boolean,
): UserInfo | Promise<UserInfo> {
  const result = authenticator.authenticate(request);
  if (result instanceof Promise) return userLater(result, anonymous);
  return userOf(result, anonymous);
}

// Apart from authenticateRequest, which thus holds no closure and makes no scope when answered at once.
function userLater(result: Promise<Authentication>, anonymous: boolean): Promise<UserInfo> {
  return result.then((settled) => userOf(settled, anonymous));
}

function userOf(result: Authentication, anonymous: boolean): UserInfo {
  if (result.kind === "user") return withAuthenticatedGroup(result.user);
  if (result.kind === "not-mine" && anonymous) return ANONYMOUS;
  throw newUnauthorized();
}
