/**
 * Pruning (apiextensions-apiserver structural/pruning): fields a structural schema does not specify are dropped,
 * except under `x-kubernetes-preserve-unknown-fields`; the dropped paths are reported for fieldValidation.
 */
import { isPlainObject } from "../../api/types.ts";
import { additionalSchema, childPath, type JSONSchemaProps } from "../../registry/apiextensions/mod.ts";

/** Fields every object keeps at its root and in embedded resources; metadata has its own rules. */
const ENVELOPE = new Set(["apiVersion", "kind", "metadata"]);

/** Drops unknown fields of the object in place; answers their paths ("spec.foo", "spec.items[0].bar"). */
export function pruneObject(obj: Record<string, unknown>, schema: JSONSchemaProps): string[] {
  const pruned: string[] = [];
  pruneFields(obj, schema, "", true, pruned);
  return pruned;
}

function pruneValue(value: unknown, schema: JSONSchemaProps, path: string, pruned: string[]): void {
  if (Array.isArray(value)) {
    if (schema.items) value.forEach((item, i) => pruneValue(item, schema.items!, `${path}[${i}]`, pruned));
    return;
  }
  if (isPlainObject(value)) pruneFields(value, schema, path, schema["x-kubernetes-embedded-resource"] === true, pruned);
}

function pruneFields(obj: Record<string, unknown>, schema: JSONSchemaProps, path: string, keepsEnvelope: boolean, pruned: string[]): void {
  const additional = additionalSchema(schema);
  const preserves = schema["x-kubernetes-preserve-unknown-fields"] === true || schema.additionalProperties === true;
  for (const key of Object.keys(obj)) {
    // prune() skips the envelope of a resource root even where the schema declares it (`metadata: {type: object}`,
    // as every controller-gen CRD does): ObjectMeta has its own rules.
    if (keepsEnvelope && ENVELOPE.has(key)) continue;
    const childSchema = schema.properties?.[key] ?? additional;
    if (childSchema) {
      pruneValue(obj[key], childSchema, childPath(path, key), pruned);
    } else if (!preserves) {
      pruned.push(childPath(path, key));
      delete obj[key];
    }
  }
}
