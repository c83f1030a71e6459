/**
 * The AdmissionReview exchange (spec 2.8, 9.4): the request sent in the first version of the hook's
 * admissionReviewVersions the server knows, and the reply, which must be in that same version.
 */
import { Buffer } from "node:buffer";
import type { AdmissionAttributes } from "../../core/admission/types.ts";
import { isPlainObject } from "../../core/api/types.ts";
import type { Invocation } from "./invocation.ts";
import { requestNamespace } from "./invocation.ts";
import { toInvokedVersion } from "./versioned.ts";

const KNOWN_VERSIONS = ["v1", "v1beta1"];
const GROUP = "admission.k8s.io";

/** The first of `versions` the server speaks, or undefined. */
export function reviewVersionFor(versions: readonly string[]): string | undefined {
  return versions.find((version) => KNOWN_VERSIONS.includes(version));
}

type ReviewedAttributes = Pick<
  AdmissionAttributes,
  "operation" | "resource" | "subresource" | "namespace" | "name" | "kind" | "object" | "oldObject" | "user" | "dryRun" | "options"
>;

export function buildReview(version: string, uid: string, invocation: Invocation, attributes: ReviewedAttributes): Record<string, unknown> {
  const { user } = attributes;
  const namespace = requestNamespace(attributes);
  const request = {
    uid,
    kind: invocation.kind,
    resource: invocation.resource,
    subResource: invocation.subresource || undefined,
    requestKind: attributes.kind,
    requestResource: attributes.resource,
    requestSubResource: attributes.subresource || undefined,
    name: attributes.name || undefined,
    namespace: namespace || undefined,
    operation: attributes.operation,
    userInfo: {
      username: user.username || undefined,
      uid: user.uid || undefined,
      groups: user.groups.length > 0 ? user.groups : undefined,
      extra: user.extra && Object.keys(user.extra).length > 0 ? user.extra : undefined,
    },
    object: toInvokedVersion(attributes.object, invocation, attributes),
    oldObject: toInvokedVersion(attributes.oldObject, invocation, attributes),
    dryRun: attributes.dryRun,
    options: attributes.operation === "CONNECT" ? null : attributes.options,
  };
  return { kind: "AdmissionReview", apiVersion: `${GROUP}/${version}`, request };
}

export interface ReviewResult {
  allowed: boolean;
  /** The denial's Status fields as the webhook sent them. */
  status?: { code?: number; message?: string; reason?: string; status?: string; details?: unknown };
  /** Base64 JSON patch; present only from mutating webhooks. */
  patch?: string;
  warnings: string[];
  auditAnnotations: Record<string, string>;
}

/** Checks a reply; throws an Error saying what is wrong with it (a call error to the dispatcher). */
export function readReviewResponse(version: string, uid: string, mutating: boolean, body: unknown): ReviewResult {
  if (!isPlainObject(body)) throw new Error("webhook response was not an object");
  const expected = `${GROUP}/${version}, Kind=AdmissionReview`;
  const got = `${String(body.apiVersion ?? "")}, Kind=${String(body.kind ?? "")}`;
  // kube 1.26 tolerates a v1beta1 reply without apiVersion/kind; v1 must be exact, and a reply never in another version.
  const untyped = body.apiVersion === undefined && body.kind === undefined;
  if (got !== expected && !(version === "v1beta1" && untyped)) throw new Error(`expected webhook response of ${expected}, got ${got}`);
  const response = body.response;
  if (!isPlainObject(response)) throw new Error("webhook response was absent");
  if (version === "v1" && response.uid !== uid) throw new Error(`expected response.uid="${uid}", got "${String(response.uid ?? "")}"`);
  const patchType = typeof response.patchType === "string" ? response.patchType : "";
  const patchText = typeof response.patch === "string" ? response.patch : "";
  if (!mutating && patchText !== "") throw new Error("validating webhook may not return response.patch");
  if (!mutating && patchType !== "") throw new Error("validating webhook may not return response.patchType");
  if (patchText !== "" && patchType === "") throw new Error("webhook returned response.patch but not response.patchType");
  if (patchType !== "" && patchType !== "JSONPatch") throw new Error(`webhook returned invalid response.patchType of "${patchType}"`);
  return {
    allowed: response.allowed === true,
    status: isPlainObject(response.status) ? (response.status as ReviewResult["status"]) : undefined,
    patch: patchText === "" ? undefined : patchText,
    warnings: Array.isArray(response.warnings) ? response.warnings.map(String) : [],
    auditAnnotations: isPlainObject(response.auditAnnotations) ? (response.auditAnnotations as Record<string, string>) : {},
  };
}

/** The operations of a base64 JSON patch; throws when it is not a JSON array. */
export function decodePatch(base64: string): unknown[] {
  const operations: unknown = JSON.parse(Buffer.from(base64, "base64").toString("utf8"));
  if (!Array.isArray(operations)) throw new Error("the patch is not a JSON array");
  return operations;
}
