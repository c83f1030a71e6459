/**
 * Validation of access review bodies and their request attributes (kube's pkg/apis/authorization/validation and
 * pkg/registry/authorization/util).
 */
import { type FieldError, newInvalid } from "../../api/errors.ts";
import { isPlainObject, type KubeObject } from "../../api/types.ts";
import type { Attributes } from "../../auth/authorizer.ts";
import type { UserInfo } from "../../auth/user.ts";

const GROUP = "authorization.k8s.io";

type Spec = Record<string, unknown>;

export function specOf(review: KubeObject): Spec {
  return isPlainObject(review.spec) ? review.spec : {};
}

const str = (value: unknown) => (typeof value === "string" ? value : "");

/** Metadata must be empty (a null creationTimestamp counts as empty; LocalSubjectAccessReview may name its namespace). */
function metadataErrors(review: KubeObject, allowNamespace: boolean): FieldError[] {
  const { creationTimestamp, namespace, ...rest } = review.metadata ?? {};
  const empty = Object.values(rest).every((v) => v === undefined || v === "") && (creationTimestamp ?? null) === null &&
    (allowNamespace || !namespace);
  if (empty) return [];
  return [{
    type: "FieldValueInvalid",
    field: "metadata",
    detail: allowNamespace ? "must be empty except for namespace" : "must be empty",
    valueText: JSON.stringify(review.metadata),
  }];
}

function attributeErrors(spec: Spec): FieldError[] {
  const hasResource = isPlainObject(spec.resourceAttributes);
  const hasNonResource = isPlainObject(spec.nonResourceAttributes);
  if (hasResource && hasNonResource) {
    return [{
      type: "FieldValueInvalid",
      field: "spec.nonResourceAttributes",
      detail: "cannot be specified in combination with resourceAttributes",
      valueText: JSON.stringify(spec.nonResourceAttributes),
    }];
  }
  if (!hasResource && !hasNonResource) {
    return [{
      type: "FieldValueInvalid",
      field: "spec.resourceAttributes",
      detail: "exactly one of nonResourceAttributes or resourceAttributes must be specified",
      valueText: "nil",
    }];
  }
  return [];
}

export type ReviewKind = "SelfSubjectAccessReview" | "SubjectAccessReview" | "LocalSubjectAccessReview";

/** Throws kube's 422 for a malformed review. */
export function validateReview(kind: ReviewKind, review: KubeObject): void {
  const spec = specOf(review);
  const errors = [...metadataErrors(review, kind === "LocalSubjectAccessReview"), ...attributeErrors(spec)];
  if (kind !== "SelfSubjectAccessReview" && str(spec.user) === "" && (!Array.isArray(spec.groups) || spec.groups.length === 0)) {
    errors.push({ type: "FieldValueInvalid", field: "spec.user", value: "", detail: "at least one of user or group must be specified" });
  }
  if (kind === "LocalSubjectAccessReview") {
    const resource = spec.resourceAttributes;
    if (isPlainObject(resource) && str(resource.namespace) !== str(review.metadata?.namespace)) {
      errors.push({
        type: "FieldValueInvalid",
        field: "spec.resourceAttributes.namespace",
        value: str(resource.namespace),
        detail: "must match metadata.namespace",
      });
    }
    if (isPlainObject(spec.nonResourceAttributes)) {
      errors.push({
        type: "FieldValueInvalid",
        field: "spec.nonResourceAttributes",
        detail: "disallowed on this kind of request",
        valueText: JSON.stringify(spec.nonResourceAttributes),
      });
    }
  }
  if (errors.length > 0) throw newInvalid({ group: GROUP, kind }, "", errors);
}

/** The user a (Local)SubjectAccessReview asks about, exactly as given. */
export function reviewedUser(spec: Spec): UserInfo {
  const extra = isPlainObject(spec.extra) ? (spec.extra as Record<string, string[]>) : undefined;
  const groups = Array.isArray(spec.groups) ? spec.groups.map(String) : [];
  return { username: str(spec.user), uid: str(spec.uid) || undefined, groups, extra };
}

/** kube's ResourceAttributesFrom / NonResourceAttributesFrom; an empty version means every version. */
export function reviewAttributes(user: UserInfo, spec: Spec): Attributes {
  if (isPlainObject(spec.resourceAttributes)) {
    const r = spec.resourceAttributes;
    return {
      user,
      verb: str(r.verb),
      isResourceRequest: true,
      path: "",
      apiGroup: str(r.group),
      apiVersion: str(r.version) || "*",
      namespace: str(r.namespace),
      resource: str(r.resource),
      subresource: str(r.subresource),
      name: str(r.name),
    };
  }
  const n = isPlainObject(spec.nonResourceAttributes) ? spec.nonResourceAttributes : {};
  return {
    user,
    verb: str(n.verb),
    isResourceRequest: false,
    path: str(n.path),
    apiGroup: "",
    apiVersion: "",
    namespace: "",
    resource: "",
    subresource: "",
    name: "",
  };
}
