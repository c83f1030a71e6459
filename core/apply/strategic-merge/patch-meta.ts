/** Patch metadata of a field, read from the built-in schemas' `x-kubernetes-patch-*` extensions. */
import type { SchemaLookup } from "../../schema/lookup.ts";
import type { Schema } from "../../schema/types.ts";
import { internalMergeError } from "./errors.ts";

export interface FieldPatchMeta {
  /** The field value's schema with references resolved; undefined for fields the schema does not describe. */
  schema: Schema | undefined;
  /** "merge", "replace" or "" (lists are then replaced, maps merged). */
  strategy: string;
  /** The key that identifies elements of a merging list of objects. */
  mergeKey: string;
}

const NO_META: FieldPatchMeta = { schema: undefined, strategy: "", mergeKey: "" };

/** kube's extractRetainKeysPatchStrategy: "retainKeys" is about the elements; the other strategy is the field's own. */
export function parsePatchStrategy(declared: string | undefined): string {
  const strategies = declared ? declared.split(",") : [];
  const others = strategies.filter((s) => s !== "retainKeys");
  if (strategies.length > 2 || others.length > 1) throw internalMergeError(`unexpected patch strategy: ${declared}`);
  return others[0] ?? "";
}

/** Metadata of `key` inside an object described by `parent` (a struct's property or a map's values). */
export function fieldPatchMeta(lookup: SchemaLookup, parent: Schema | undefined, key: string): FieldPatchMeta {
  if (!parent) return NO_META;
  const declared = lookup.propertySchema(parent, key) ?? mapValueSchema(parent);
  if (!declared) return NO_META;
  return {
    schema: lookup.resolve(declared),
    strategy: parsePatchStrategy(declared["x-kubernetes-patch-strategy"]),
    mergeKey: declared["x-kubernetes-patch-merge-key"] ?? "",
  };
}

export function elementSchema(lookup: SchemaLookup, list: Schema | undefined): Schema | undefined {
  return list?.items ? lookup.resolve(list.items) : undefined;
}

function mapValueSchema(schema: Schema): Schema | undefined {
  return typeof schema.additionalProperties === "object" ? schema.additionalProperties : undefined;
}
