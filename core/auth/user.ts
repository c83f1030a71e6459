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
 * What withAuthenticatedGroup gave for a user its authenticator keeps and hands out again (frozen, such as a client
 * certificate's or a verified ServiceAccount token's): worked out once, so a request with a kept identity finds it by
 * one look-up and makes no new user.
 */
const keptWithGroup = new WeakMap<UserInfo, UserInfo>();

/** Every authenticated user is in system:authenticated (kube's AuthenticatedGroupAdder); anonymous is not. */
export function withAuthenticatedGroup(user: UserInfo): UserInfo {
  const kept = keptWithGroup.get(user);
  if (kept !== undefined) return kept;
  if (user.username === ANONYMOUS_USER || user.groups.includes(AUTHENTICATED_GROUP) || user.groups.includes(UNAUTHENTICATED_GROUP)) {
    if (Object.isFrozen(user)) keptWithGroup.set(user, user);
    return user;
  }
  if (!Object.isFrozen(user)) return { ...user, groups: [...user.groups, AUTHENTICATED_GROUP] };
  const added = deepFreeze({ ...user, groups: [...user.groups, AUTHENTICATED_GROUP] });
  keptWithGroup.set(user, added);
  return added;
}
