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

/** Every authenticated user is in system:authenticated (kube's AuthenticatedGroupAdder); anonymous is not. */
export function withAuthenticatedGroup(user: UserInfo): UserInfo {
  if (user.username === ANONYMOUS_USER || user.groups.includes(AUTHENTICATED_GROUP) || user.groups.includes(UNAUTHENTICATED_GROUP)) {
    return user;
  }
  return { ...user, groups: [...user.groups, AUTHENTICATED_GROUP] };
}
