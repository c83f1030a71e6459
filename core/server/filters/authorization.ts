/** The authorization step of the chain (kube's WithAuthorization): anything but Allow is a 403 in kube's message shape. */
import { type Attributes, type AuthorizationResult, type Authorizer, newAuthorizationForbidden } from "../../auth/authorizer.ts";
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

/** The audit annotations WithAuthorization adds: the decision ("allow" or "forbid") and the authorizer's reason. */
export type DecisionAnnotations = [string, string][];

/** Nothing once allowed, at once when the authorizer decided at once; a refusal is kube's 403, thrown or rejected. */
export function authorizeRequest(
  authorizer: Authorizer,
  attributes: Attributes,
  annotate?: (annotations: DecisionAnnotations) => void,
): void | Promise<void> {
  const result = authorizer.authorize(attributes);
  if (result instanceof Promise) return enforcedLater(result, attributes, annotate);
  enforce(result, attributes, annotate);
}

// Apart from authorizeRequest, which thus holds no closure and makes no scope when decided at once.
function enforcedLater(
  result: Promise<AuthorizationResult>,
  attributes: Attributes,
  annotate?: (annotations: DecisionAnnotations) => void,
): Promise<void> {
  return result.then((decided) => enforce(decided, attributes, annotate));
}

function enforce(result: AuthorizationResult, attributes: Attributes, annotate?: (annotations: DecisionAnnotations) => void): void {
  const decision = result.decision === "Allow" ? "allow" : "forbid";
  annotate?.([["authorization.k8s.io/decision", decision], ["authorization.k8s.io/reason", result.reason ?? ""]]);
  if (result.decision !== "Allow") throw newAuthorizationForbidden(attributes, result.reason);
}
