/** kube's pkg/auth/nodeidentifier default identifier: which node a user is, shared by the Node authorizer and NodeRestriction. */
import type { UserInfo } from "./user.ts";

const NODE_USER_PREFIX = "system:node:";
const NODES_GROUP = "system:nodes";

/** The node name ("" when the user name names none), or undefined when the user is not a node. */
export function nodeIdentity(user: UserInfo): string | undefined {
  if (!user.username.startsWith(NODE_USER_PREFIX) || !user.groups.includes(NODES_GROUP)) return undefined;
  return user.username.slice(NODE_USER_PREFIX.length);
}
