/**
 * The ConversionReview exchange of a conversion webhook (apiextensions-apiserver webhook_converter.go): the request
 * in the first version the CRD accepts, the reply's checks (createConversionReviewObjects,
 * getConvertedObjectsFromResponse), and each converted object's checks against its original
 * (validateConvertedObject, restoreObjectMeta: only labels and annotations may change). Errors carry kube's texts.
 */
import { aggregateFieldErrors } from "../../api/errors.ts";
import { validateAnnotations, validateLabels } from "../../api/names.ts";
import { isPlainObject, type KubeObject } from "../../api/types.ts";

const REVIEW_GROUP = "apiextensions.k8s.io";
const SUPPORTED_REVIEW_VERSIONS = new Set(["v1", "v1beta1"]);

export type ReviewVersion = "v1" | "v1beta1";

/** The first of the CRD's conversionReviewVersions this server speaks. */
export function reviewVersionFor(versions: string[]): ReviewVersion | undefined {
  return versions.find((version) => SUPPORTED_REVIEW_VERSIONS.has(version)) as ReviewVersion | undefined;
}

export function conversionReview(version: ReviewVersion, uid: string, objects: KubeObject[], desiredAPIVersion: string): unknown {
  return { apiVersion: `${REVIEW_GROUP}/${version}`, kind: "ConversionReview", request: { uid, desiredAPIVersion, objects } };
}

/** A Go `schema.GroupVersionKind` as `%v` prints it. */
export function gvkText(apiVersion: unknown, kind: unknown): string {
  return `${typeof apiVersion === "string" ? apiVersion : ""}, Kind=${typeof kind === "string" ? kind : ""}`;
}

/** getConvertedObjectsFromResponse: v1 replies are checked for their kind and uid; v1beta1 replies are not. */
export function convertedObjectsOf(version: ReviewVersion, uid: string, reply: unknown): unknown[] {
  const review = isPlainObject(reply) ? reply : {};
  if (version === "v1" && (review.apiVersion !== `${REVIEW_GROUP}/v1` || review.kind !== "ConversionReview")) {
    throw new Error(
      `expected webhook response of ${gvkText(`${REVIEW_GROUP}/v1`, "ConversionReview")}, got ${gvkText(review.apiVersion, review.kind)}`,
    );
  }
  const response = review.response;
  if (!isPlainObject(response)) throw new Error("no response provided");
  if (version === "v1" && response.uid !== uid) {
    throw new Error(`expected response.uid="${uid}", got "${typeof response.uid === "string" ? response.uid : ""}"`);
  }
  const result = isPlainObject(response.result) ? response.result : {};
  if (result.status !== "Success") {
    if (typeof result.message === "string" && result.message !== "") throw new Error(result.message);
    throw new Error(`response.result.status was '${typeof result.status === "string" ? result.status : ""}', not 'Success'`);
  }
  return Array.isArray(response.convertedObjects) ? response.convertedObjects : [];
}

/** Go's `%T` of a decoded JSON value. */
function goType(value: unknown): string {
  if (value === null) return "<nil>";
  if (Array.isArray(value)) return "[]interface {}";
  if (typeof value === "number") return Number.isInteger(value) ? "int64" : "float64";
  if (typeof value === "object") return "map[string]interface {}";
  return typeof value;
}

/** validateConvertedObject: identity fields stay. */
export function identityError(original: KubeObject, converted: KubeObject): string | undefined {
  const pairs: [string, unknown, unknown][] = [
    ["kind", original.kind, converted.kind],
    ["name", original.metadata.name, converted.metadata?.name],
    ["namespace", original.metadata.namespace ?? "", converted.metadata?.namespace ?? ""],
    ["UID", original.metadata.uid ?? "", converted.metadata?.uid ?? ""],
  ];
  for (const [field, expected, got] of pairs) {
    if (expected !== got) return `must have the same ${field}: ${String(expected ?? "")} != ${String(got ?? "")}`;
  }
  return undefined;
}

/**
 * restoreObjectMeta: the converted object gets the original's metadata back, except the labels and annotations the
 * webhook answered (validated when they changed). Throws kube's message for bad metadata.
 */
export function withRestoredMeta(original: KubeObject, converted: Record<string, unknown>): KubeObject {
  const answered = converted.metadata;
  if (answered === undefined) throw new Error("missing metadata in converted object");
  if (!isPlainObject(answered)) throw new Error(`invalid metadata of type ${goType(answered)} in converted object`);
  const metadata: Record<string, unknown> = structuredClone(original.metadata);
  for (const field of ["labels", "annotations"] as const) {
    const value = answered[field];
    if (value === undefined || value === null) {
      delete metadata[field];
      continue;
    }
    if (!isPlainObject(value)) throw new Error(`invalid metadata.${field} of type ${goType(value)} in converted object`);
    const before = (metadata[field] ?? {}) as Record<string, string>;
    let changed = Object.keys(before).length !== Object.keys(value).length;
    for (const [key, item] of Object.entries(value)) {
      if (typeof item !== "string") {
        throw new Error(`metadata.${field}[${key}] must be a string, but is ${goType(item)} in converted object`);
      }
      if (before[key] !== item) changed = true;
    }
    if (changed) {
      const strings = value as Record<string, string>;
      const errors = field === "labels" ? validateLabels(strings, "metadata.labels") : validateAnnotations(strings, "metadata.annotation");
      if (errors.length > 0) throw new Error(aggregateFieldErrors(errors));
    }
    metadata[field] = value;
  }
  return { ...converted, metadata } as KubeObject;
}
