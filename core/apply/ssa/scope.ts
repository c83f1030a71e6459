/**
 * Which fields a write may own: the fields kube's StripMetaManager never records (identity and server-set
 * metadata), and the reset fields of the endpoint (status on the main resource of kinds with a status
 * subresource; everything but status on the status subresource).
 */
import type { KubeObject } from "../../api/types.ts";
import { difference, type FieldSet, setFromPaths, withoutTopLevel } from "./field-set.ts";
import type { TypeNode } from "./schema-type.ts";
import type { VersionConverter } from "./versions.ts";

export interface OwnershipScope {
  /** Version the fields are recorded against, e.g. "apps/v1". */
  apiVersion: string;
  /** "" or undefined for the main resource. */
  subresource?: string;
  /** The kind has a status subresource, so main-resource writes do not own status. */
  hasStatusSubresource: boolean;
  type: TypeNode;
  /** The object in the other versions managers may have written with. */
  converter: VersionConverter;
}

const SERVER_OWNED = setFromPaths([
  ["f:apiVersion"],
  ["f:kind"],
  ["f:metadata"],
  ...["name", "namespace", "creationTimestamp", "selfLink", "uid", "clusterName", "generation", "managedFields", "resourceVersion"]
    .map((field) => ["f:metadata", `f:${field}`]),
]);

/** Leaves out the fields the endpoint resets: they can neither be owned nor conflict. */
export function withinScope(set: FieldSet, scope: OwnershipScope): FieldSet {
  if (scope.subresource === "status") return withoutTopLevel(set, (element) => element !== "f:status");
  if (!scope.subresource && scope.hasStatusSubresource) return withoutTopLevel(set, (element) => element === "f:status");
  return set;
}

/** Leaves out identity and server-set metadata (kube's StripMetaManager). */
export function withoutServerOwned(set: FieldSet): FieldSet {
  return difference(set, SERVER_OWNED);
}

/** A copy without metadata.managedFields, the form the walkers compare and merge. */
export function withoutManagedFields(obj: KubeObject): KubeObject {
  const { managedFields: _managed, ...metadata } = obj.metadata ?? {};
  return { ...obj, metadata };
}
