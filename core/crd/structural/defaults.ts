/**
 * Defaulting from a structural schema (apiextensions-apiserver structural/defaulting): a missing property with a
 * `default` gets a copy of it, walking into defaulted values too; a null where the schema is not nullable is
 * replaced by the default or dropped, as kube does.
 */
import { isPlainObject } from "../../api/types.ts";
import { additionalSchema, type JSONSchemaProps } from "../../registry/apiextensions/mod.ts";

export function applySchemaDefaults(value: unknown, schema: JSONSchemaProps): void {
  if (Array.isArray(value)) {
    if (schema.items) { for (const item of value) applySchemaDefaults(item, schema.items); }
    return;
  }
  if (!isPlainObject(value)) return;
  for (const [key, property] of Object.entries(schema.properties ?? {})) {
    const current = value[key];
    if (current === null && property.nullable) continue;
    if (current !== undefined && current !== null) continue;
    if (property.default !== undefined) value[key] = structuredClone(property.default);
    else if (current === null) delete value[key];
  }
  const additional = additionalSchema(schema);
  for (const [key, child] of Object.entries(value)) {
    const childSchema = schema.properties?.[key] ?? additional;
    if (childSchema) applySchemaDefaults(child, childSchema);
  }
}
