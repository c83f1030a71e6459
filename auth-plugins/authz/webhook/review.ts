/**
 * The SubjectAccessReview exchanged with the authorization webhook (kube's plugin/pkg/authorizer/webhook): the
 * request attributes in the configured version (v1beta1 names the groups field `group`), and the reply's status.
 */
import type { Attributes, AuthorizationResult } from "../../../plugins/sdk.ts";

export const SUPPORTED_VERSIONS = ["v1", "v1beta1"];

export interface ReviewStatus {
  allowed: boolean;
  denied: boolean;
  reason: string;
}

/** Only the non-empty fields, as Go's omitempty writes them. */
function compact(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined && v !== "" && !(Array.isArray(v) && v.length === 0)));
}

export function reviewSpec(version: string, a: Attributes): Record<string, unknown> {
  const target = a.isResourceRequest
    ? {
      resourceAttributes: compact({
        namespace: a.namespace,
        verb: a.verb,
        group: a.apiGroup,
        version: a.apiVersion,
        resource: a.resource,
        subresource: a.subresource,
        name: a.name,
      }),
    }
    : { nonResourceAttributes: compact({ path: a.path, verb: a.verb }) };
  const groupsField = version === "v1beta1" ? "group" : "groups";
  return { ...target, ...compact({ user: a.user.username, [groupsField]: a.user.groups, extra: a.user.extra, uid: a.user.uid }) };
}

export function reviewRequest(version: string, spec: Record<string, unknown>): Record<string, unknown> {
  return {
    kind: "SubjectAccessReview",
    apiVersion: `authorization.k8s.io/${version}`,
    metadata: { creationTimestamp: null },
    spec,
    status: { allowed: false },
  };
}

/** The status of a reply; a reply that breaks the protocol (HTTP error, not a SubjectAccessReview) throws. */
export function readReviewReply(httpStatus: number, body: unknown): ReviewStatus {
  if (httpStatus < 200 || httpStatus > 299) throw new Error(`the authorization webhook answered HTTP ${httpStatus}`);
  const reply = (body && typeof body === "object" ? body : {}) as Record<string, unknown>;
  const versions = SUPPORTED_VERSIONS.map((v) => `authorization.k8s.io/${v}`);
  if (reply.kind !== "SubjectAccessReview" || !versions.includes(String(reply.apiVersion))) {
    throw new Error(`the authorization webhook answered ${String(reply.apiVersion)} ${String(reply.kind)}, expected a SubjectAccessReview`);
  }
  const status = (reply.status && typeof reply.status === "object" ? reply.status : {}) as Record<string, unknown>;
  return {
    allowed: status.allowed === true,
    denied: status.denied === true,
    reason: typeof status.reason === "string" ? status.reason : "",
  };
}

/** denied wins over allowed; neither is no opinion. */
export function decisionOf(status: ReviewStatus): AuthorizationResult {
  const decision = status.denied ? "Deny" : status.allowed ? "Allow" : "NoOpinion";
  return status.reason ? { decision, reason: status.reason } : { decision };
}
