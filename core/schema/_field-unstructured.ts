/**
 * Type errors in the words of runtime.DefaultUnstructuredConverter.FromUnstructured (apimachinery
 * runtime/converter.go), which kube uses instead of the JSON decoder for strategic merge patches: it walks the
 * patched map into the typed object and stops at the first value it cannot store.
 */
import type { FieldNode } from "./_field-nodes.ts";
import type { ValueProblem } from "./_field-values.ts";

/** The reflect.Kind of a value in the map kube decodes a patch into (util/json: integers are int64). */
function goKind(value: unknown): string {
  if (typeof value === "string") return "string";
  if (typeof value === "boolean") return "bool";
  if (typeof value === "number") return Number.isInteger(value) ? "int64" : "float64";
  return Array.isArray(value) ? "slice" : "map";
}

const NUMERIC = new Set(["int32", "int64", "float64"]);

/**
 * fromUnstructured on a scalar field: Go conversions JSON does not allow fail with "cannot convert", values no
 * conversion reaches are unrecognized; undefined where Go converts (an int64 into a narrower integer overflows).
 */
function scalarMessage(source: string, target: string): string | undefined {
  if (source === "int64" && NUMERIC.has(target)) return undefined;
  if ((source === "float64" && NUMERIC.has(target)) || (source === "int64" && target === "string")) {
    return `cannot convert ${source} to ${target}`;
  }
  return `unrecognized type: ${target}`;
}

/**
 * The converter's error for `value`, which the JSON check found `problem` with, at a field of `node`'s type;
 * undefined where the converter would store it after all.
 */
export function unstructuredMessage(value: unknown, node: FieldNode, problem?: ValueProblem): string | undefined {
  const source = goKind(value);
  switch (node.kind) {
    case "struct":
      return `cannot restore struct from: ${source}`;
    case "map":
      return `cannot restore map from ${source}`;
    case "array":
      return `cannot restore slice from ${source}`;
    case "bytes":
      if (typeof value === "string" && problem && "message" in problem) return `error decoding from json: ${problem.message}`;
      return `cannot restore slice from ${source}`;
    case "scalar":
      return scalarMessage(source, node.goType);
    default:
      // Quantity, IntOrString and Time decode through their UnmarshalJSON, whose errors pass through as they are.
      if (!problem) return `unrecognized type: ${source}`;
      return "message" in problem ? problem.message : `json: cannot unmarshal ${problem.jsonValue} into Go value of type ${problem.goType}`;
  }
}
