/**
 * Type checks of single values against a field node, in the words of kube's JSON decoder: Go's
 * UnmarshalTypeError for a JSON type Go cannot store, or the custom decoders' own errors
 * (Quantity, Time, base64 bytes).
 */
import { base64Error } from "./_field-base64.ts";
import type { FieldNode } from "./_field-nodes.ts";
import { QUANTITY_FORMAT_ERROR, quantityError } from "./_field-quantity.ts";
import { timeParseError } from "./_field-time.ts";
import { isJSONInteger } from "../api/exact-integers.ts";

/** What is wrong with a value: a Go type mismatch (worded with the field's context by the caller) or a complete message. */
export type ValueProblem = { jsonValue: string; goType: string } | { message: string };

const INT_RANGES = { int32: 2n ** 31n, int64: 2n ** 63n } as const;
const JSON_TYPE_OF_GO_SCALAR: Record<string, string> = { float64: "number", string: "string", bool: "boolean" };

/** Go's description of a JSON value in UnmarshalTypeError: "string", "number", "bool", "array", "object". */
export function describeJSON(value: unknown): string {
  if (typeof value === "boolean") return "bool";
  if (typeof value === "number" || typeof value === "bigint") return "number";
  if (typeof value === "string") return "string";
  return Array.isArray(value) ? "array" : "object";
}

/** Integers beyond 2^53 arrive as BigInt (exact-integers.ts) and are checked against Go's range exactly. */
function integerProblem(value: unknown, goType: "int32" | "int64"): ValueProblem | undefined {
  if (typeof value !== "number" && typeof value !== "bigint") return { jsonValue: describeJSON(value), goType };
  const limit = INT_RANGES[goType];
  if (isJSONInteger(value) && value >= -limit && value < limit) return undefined;
  return { jsonValue: `number ${value}`, goType };
}

/** The problem with a non-null value that is not an object or array node (those are walked), or undefined. */
export function scalarProblem(value: unknown, node: FieldNode): ValueProblem | undefined {
  switch (node.kind) {
    case "scalar": {
      if (node.goType === "int32" || node.goType === "int64") return integerProblem(value, node.goType);
      const jsonType: string = typeof value;
      if (jsonType === JSON_TYPE_OF_GO_SCALAR[node.goType]) return undefined;
      if (node.goType === "float64" && jsonType === "bigint") return undefined;
      return { jsonValue: describeJSON(value), goType: node.goType };
    }
    case "bytes": {
      if (typeof value !== "string") return { jsonValue: describeJSON(value), goType: node.goType };
      const message = base64Error(value);
      return message === undefined ? undefined : { message };
    }
    case "quantity": {
      if (typeof value === "number" || typeof value === "bigint") return undefined;
      const message = typeof value === "string" ? quantityError(value.trim()) : QUANTITY_FORMAT_ERROR;
      return message === undefined ? undefined : { message };
    }
    case "intOrString":
      // IntOrString decodes a non-string as int32.
      return typeof value === "string" ? undefined : integerProblem(value, "int32");
    case "time": {
      // metav1.Time decodes its JSON as a string first.
      if (typeof value !== "string") return { jsonValue: describeJSON(value), goType: "string" };
      const message = timeParseError(node.layout, value);
      return message === undefined ? undefined : { message };
    }
    default:
      return undefined;
  }
}

/** Go's zero value of a node, which a JSON null inside a list or map decodes to; null where Go keeps a nil. */
export function zeroValue(node: FieldNode): unknown {
  switch (node.kind) {
    case "struct":
      return {};
    case "scalar":
      return node.goType === "string" ? "" : node.goType === "bool" ? false : 0;
    case "intOrString":
      return 0;
    case "quantity":
      return "0";
    default:
      return null;
  }
}
