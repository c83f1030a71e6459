/**
 * What a resource type defined at run time (a custom resource) brings to its definition in place of a built-in
 * kind's facts: its schema's pruning, defaulting and validation, its printer, its storage version, its merge type.
 */
import type { FieldError } from "../api/errors.ts";
import type { Printer } from "../api/printers/mod.ts";
import type { KubeObject } from "../api/types.ts";
import type { TypeNode } from "../apply/ssa/mod.ts";
import type { Strategy } from "./strategy.ts";

/**
 * `objects` (each in any version of the type) as `toApiVersion`, in order; `list` when they are one list's items.
 * Throws a StatusError when conversion fails (a conversion webhook's error).
 */
export type ConvertObjects = (objects: KubeObject[], toApiVersion: string, list: boolean) => Promise<KubeObject[]>;

export interface StoreExtension {
  /** Overrides of the generic Store strategy (definition.ts). */
  strategy?: Partial<Strategy>;
  /** Drops fields the schema does not know, in place; answers their paths (replaces the built-in field check). */
  prune(obj: KubeObject): string[];
  /** Fills in the schema's defaults in place (replaces kube's built-in defaulting). */
  applyDefaults(obj: KubeObject): void;
  /** Field errors of the schema; `old` is the stored object on update. */
  validate(obj: KubeObject, old?: KubeObject): FieldError[];
  /** The Table printer of the version's additionalPrinterColumns. */
  printer: Printer;
  /** The apiVersion objects are stored with; reads answer in the store's own version. */
  storageApiVersion: string;
  /** Converts between the type's versions (on every write to the storage version, on every read from it). */
  convert: ConvertObjects;
  /** How server-side apply and managedFields see the kind. */
  mergeType: TypeNode;
  /** How they see it in another version of the CRD (served or not); undefined for a version the CRD does not list. */
  versionMergeType(apiVersion: string): TypeNode | undefined;
  /** The defining CRD is being deleted: POST creates are refused (kube's crdHandler serveResource). */
  terminating?: boolean;
}
