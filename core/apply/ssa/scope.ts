/**
 * Which fields a write may own: the fields kube's StripMetaManager never records (identity and server-set
 * metadata), and the reset fields of the endpoint (status on the main resource of kinds with a status
 * subresource; on the status subresource everything but status and the metadata its strategy does not reset).
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
  /**
   * The metadata fields the status strategy's GetResetFields lists, which status writes never own; "all" for the whole
   * of metadata. Absent = "all".
   */
  statusResetMetadata?: readonly string[] | "all";
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
  if (scope.subresource === "status") return withinStatusScope(set, scope.statusResetMetadata ?? "all");
  if (!scope.subresource && scope.hasStatusSubresource) return withoutTopLevel(set, (element) => element === "f:status");
  return set;
}

/** A status write owns status and the metadata its strategy does not reset (spec is reset by every one). */
function withinStatusScope(set: FieldSet, resetMetadata: readonly string[] | "all"): FieldSet {
  const owned = withoutTopLevel(set, (element) => element !== "f:status" && (resetMetadata === "all" || element !== "f:metadata"));
  const metadata = owned.children.get("f:metadata");
  if (!metadata || resetMetadata === "all") return owned;
  const reset = new Set(resetMetadata.map((field) => `f:${field}`));
  return { ...owned, children: new Map([...owned.children, ["f:metadata", withoutTopLevel(metadata, (element) => reset.has(element))]]) };
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
