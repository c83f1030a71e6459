/** The authorization step of the chain: anything but Allow is a 403 in kube's message shape. */
import { type Attributes, type Authorizer, newAuthorizationForbidden } from "../../auth/authorizer.ts";
import type { UserInfo } from "../../auth/user.ts";
import type { RequestInfo } from "../request-info.ts";

export function attributesOf(info: RequestInfo, user: UserInfo): Attributes {
  return {
    user,
    verb: info.verb,
    isResourceRequest: info.isResourceRequest,
    path: info.path,
    apiGroup: info.apiGroup,
    apiVersion: info.apiVersion,
    namespace: info.namespace,
    resource: info.resource,
    subresource: info.subresource,
    name: info.name,
  };
}

export async function authorizeRequest(authorizer: Authorizer, attributes: Attributes): Promise<void> {
  const result = await authorizer.authorize(attributes);
  if (result.decision !== "Allow") throw newAuthorizationForbidden(attributes, result.reason);
}
