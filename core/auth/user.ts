/** The identity a request is made with (k8s.io/apiserver pkg/authentication/user). */

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

/** The users with the group added, for users an authenticator hands out again and again (frozen, as x509's are). */
const withGroupAdded = new WeakMap<UserInfo, UserInfo>();

/**
 * Every authenticated user is in system:authenticated (kube's AuthenticatedGroupAdder); anonymous is not. A frozen
 * user gets the same answer each time, made once.
 */
export function withAuthenticatedGroup(user: UserInfo): UserInfo {
  if (user.username === ANONYMOUS_USER || user.groups.includes(AUTHENTICATED_GROUP) || user.groups.includes(UNAUTHENTICATED_GROUP)) {
    return user;
  }
  if (!Object.isFrozen(user)) return { ...user, groups: [...user.groups, AUTHENTICATED_GROUP] };
  let added = withGroupAdded.get(user);
  if (added === undefined) {
    added = Object.freeze({ ...user, groups: Object.freeze([...user.groups, AUTHENTICATED_GROUP]) as string[] });
    withGroupAdded.set(user, added);
  }
  return added;
}
