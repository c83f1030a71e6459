/**
 * The authentication step of the chain: the union decides; invalid credentials are 401 and never become
 * anonymous; a request with no credentials is anonymous only when anonymous access is on (spec 5.1, 5.7).
 */
import { newUnauthorized } from "../../api/errors.ts";
import type { AuthenticationRequest, Authenticator } from "../../auth/authenticator.ts";
import { ANONYMOUS, type UserInfo, withAuthenticatedGroup } from "../../auth/user.ts";

export async function authenticateRequest(
  authenticator: Authenticator,
  request: AuthenticationRequest,
  anonymous: boolean,
): Promise<UserInfo> {
  const result = await authenticator.authenticate(request);
  if (result.kind === "user") return withAuthenticatedGroup(result.user);
  if (result.kind === "not-mine" && anonymous) return ANONYMOUS;
  throw newUnauthorized();
}
