/** Turns upstream OpenAPI v3 schemas into the compact form of core/schema/types.ts: facts kept, prose dropped. */
import type { Schema } from "../core/schema/types.ts";

type Json = Record<string, unknown>;

const V3_REF_PREFIX = "#/components/schemas/";
const NESTED_ONE = new Set(["items", "additionalProperties"]);
/** Keys carried over as they are (everything else but description is an error, so new upstream keys get noticed). */
const CARRIED = new Set([
  "type",
  "format",
  "required",
  "enum",
  "default",
  "x-kubernetes-int-or-string",
  "x-kubernetes-preserve-unknown-fields",
  "x-kubernetes-embedded-resource",
  "x-kubernetes-list-type",
  "x-kubernetes-list-map-keys",
  "x-kubernetes-map-type",
  "x-kubernetes-patch-merge-key",
  "x-kubernetes-patch-strategy",
  "x-kubernetes-group-version-kind",
  "x-kubernetes-unions",
]);
/** The order keys are written in, so the output is deterministic whatever order the input had. */
const KEY_ORDER = ["type", "format", "ref", "properties", "required", "items", "additionalProperties", "oneOf", "enum", "default"];

/** One upstream schema in compact form; `refPrefix` is "#/definitions/" for the v2 document. */
export function compactSchema(source: Json, refPrefix = V3_REF_PREFIX): Schema {
  const refName = (ref: unknown): string => {
    if (typeof ref !== "string" || !ref.startsWith(refPrefix)) throw new Error(`unexpected $ref ${String(ref)}`);
    return ref.slice(refPrefix.length);
  };
  const nested = (value: Json): Schema => compactSchema(value, refPrefix);
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(source)) {
    if (key === "description") continue;
    if (key === "$ref") out.ref = refName(value);
    else if (key === "allOf") {
      const parts = value as Json[];
      if (parts.length !== 1) throw new Error(`allOf with ${parts.length} members`);
      out.ref = refName(parts[0]["$ref"]);
    } else if (key === "properties") {
      out.properties = Object.fromEntries(
        Object.entries(value as Record<string, Json>).map(([name, field]) => [name, nested(field)]),
      );
    } else if (key === "oneOf") out.oneOf = (value as Json[]).map(nested);
    else if (NESTED_ONE.has(key)) out[key] = typeof value === "boolean" ? value : nested(value as Json);
    else if (CARRIED.has(key)) out[key] = value;
    else throw new Error(`unexpected schema key ${key}`);
  }
  return canonicalSchema(out as Schema);
}

function rank(key: string): number {
  const index = KEY_ORDER.indexOf(key);
  return index === -1 ? KEY_ORDER.length : index;
}

/** The same schema with its keys in the fixed order, property names sorted, nested schemas likewise. */
export function canonicalSchema(schema: Schema): Schema {
  const keys = Object.keys(schema).sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
  const out: Record<string, unknown> = {};
  for (const key of keys) {
    const value = (schema as Record<string, unknown>)[key];
    if (key === "properties") {
      const properties = value as Record<string, Schema>;
      out.properties = Object.fromEntries(
        Object.keys(properties).sort().map((name) => [name, canonicalSchema(properties[name])]),
      );
    } else if (key === "oneOf") out.oneOf = (value as Schema[]).map(canonicalSchema);
    else if (NESTED_ONE.has(key) && typeof value === "object") out[key] = canonicalSchema(value as Schema);
    else out[key] = value;
  }
  return out as Schema;
}
