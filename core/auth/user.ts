/** The identity a request is made with (k8s.io/apiserver pkg/authentication/user). */
import { deepFreeze } from "../api/deep-freeze.ts";

export interface UserInfo {
  username: string;
  uid?: string;
  groups: string[];
  /** Extra attributes (scopes, token ids); values are lists. */
  extra?: Record<string, string[]>;
}

export const ANONYMOUS_USER = "system:anonymous";
export const UNAUTHENTICATED_GROUP = "system:unauthenticated";
export const AUTHENTICATED_GROUP = "system:authenticated";

export const ANONYMOUS: UserInfo = { username: ANONYMOUS_USER, groups: [UNAUTHENTICATED_GROUP] };

/**
 * The same user in system:authenticated, for a user its authenticator keeps and hands out again (frozen, such as a
 * verified ServiceAccount token's): made once, so a request with a kept identity makes no new user here.
 */
const keptWithGroup = new WeakMap<UserInfo, UserInfo>();

/** Every authenticated user is in system:authenticated (kube's AuthenticatedGroupAdder); anonymous is not. */
export function withAuthenticatedGroup(user: UserInfo): UserInfo {
  if (user.username === ANONYMOUS_USER || user.groups.includes(AUTHENTICATED_GROUP) || user.groups.includes(UNAUTHENTICATED_GROUP)) {
    return user;
  }
  if (!Object.isFrozen(user)) return { ...user, groups: [...user.groups, AUTHENTICATED_GROUP] };
  let added = keptWithGroup.get(user);
  if (!added) keptWithGroup.set(user, added = deepFreeze({ ...user, groups: [...user.groups, AUTHENTICATED_GROUP] }));
  return added;
}
