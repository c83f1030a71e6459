/**
 * Strategic merge patch for built-in kinds (k8s.io/apimachinery strategicpatch, server side): lists with
 * patch strategy "merge" merge by their merge key, directives `$patch`, `$setElementOrder/<list>`,
 * `$deleteFromPrimitiveList/<list>` and `$retainKeys` are honoured, null deletes.
 */
import { builtInSchemas, type SchemaLookup } from "../../schema/lookup.ts";
import type { Schema } from "../../schema/types.ts";
import { mergeMap } from "./merge.ts";

export { StrategicMergeError } from "./errors.ts";

/** Applies `patch` to a copy of `original`, reading list semantics from `schema` (the kind's root schema). */
export function strategicMergePatch(
  original: Record<string, unknown>,
  patch: Record<string, unknown>,
  options: { schema: Schema; lookup?: SchemaLookup },
): Record<string, unknown> {
  const lookup = options.lookup ?? builtInSchemas;
  return mergeMap(structuredClone(original), structuredClone(patch), lookup.resolve(options.schema), lookup);
}
