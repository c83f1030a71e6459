/**
 * JSON values as CEL values, typed by their schema as kube's UnstructuredToVal does: integers are int, numbers
 * double, int-or-string either, `format: byte` bytes, `duration` durations, `date`/`date-time` timestamps; objects
 * show only their declared (escaped) properties, maps their keys, and resource roots apiVersion, kind and
 * metadata.name/generateName.
 */
import { type CelInput, type CelMap, celMap, isCelError, parse } from "@bufbuild/cel";
import { planRule } from "./env.ts";
import { escapePropertyName } from "./escape.ts";
import { isFieldObject, mapValueSchema, type RuleSchema, withTypeAndObjectMeta } from "./schema.ts";

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const toTimestamp = planRule(parse("timestamp(v)"));
const toDuration = planRule(parse("duration(v)"));

/** CEL's own conversion; values it refuses (the schema check already did) stay strings. */
function converted(program: typeof toTimestamp, value: string, original: string): unknown {
  const result = program({ v: value });
  return isCelError(result) ? original : result;
}

function stringValue(value: string, format: string | undefined): unknown {
  if (format === "duration") return converted(toDuration, value, value);
  if (format === "date") return converted(toTimestamp, `${value}T00:00:00Z`, value);
  if (format === "date-time") return converted(toTimestamp, value, value);
  if (format === "byte") {
    try {
      return Uint8Array.from(atob(value), (c) => c.charCodeAt(0));
    } catch {
      return value;
    }
  }
  return value;
}

function numeric(value: unknown, type: "integer" | "number"): unknown {
  if (typeof value !== "number" && typeof value !== "bigint") return value;
  if (type === "number") return Number(value);
  return typeof value === "bigint" ? value : Number.isInteger(value) ? BigInt(value) : value;
}

/** The CEL value of `value` under `schema`; `resourceRoot` for the object root and embedded resources. */
export function toCelValue(value: unknown, schema: RuleSchema, resourceRoot = false): unknown {
  if (value === null || value === undefined) return null;
  if (schema["x-kubernetes-int-or-string"]) return numeric(value, "integer");
  switch (schema.type) {
    case "integer":
    case "number":
      return numeric(value, schema.type);
    case "string":
      return typeof value === "string" ? stringValue(value, schema.format) : value;
    case "array":
      return Array.isArray(value) ? value.map((item) => schema.items ? toCelValue(item, schema.items) : item) : value;
    case "object":
      return isRecord(value) ? objectValue(value, resourceRoot ? withTypeAndObjectMeta(schema) : schema) : value;
  }
  return value;
}

/**
 * A map as kube's unstructuredMap.Find sees it: a key whose value is null (nullable additionalProperties) is
 * present, so `has(self.m.k)` and `'k' in self.m` are true and `self.m.k` is null. @bufbuild/cel's own map tests
 * presence with `get(key) != undefined`, which reads a null value as absent; has() asks the entries instead.
 */
function mapValue(entries: Map<string, unknown>): CelMap {
  const map = celMap(entries as Map<string, CelInput>);
  const lookup = map.has.bind(map);
  map.has = (key) => typeof key === "string" ? entries.has(key) : lookup(key);
  return map;
}

function objectValue(value: Record<string, unknown>, schema: RuleSchema): Map<string, unknown> | CelMap {
  const values = mapValueSchema(schema);
  if (!isFieldObject(schema) && values) {
    return mapValue(
      new Map(Object.entries(value).map(([key, item]) => [key, toCelValue(item, values, values["x-kubernetes-embedded-resource"])])),
    );
  }
  const fields = new Map<string, unknown>();
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const escaped = escapePropertyName(name);
    // Null-valued fields are absent to rules (ValidationRule.rule's documentation in the 1.26 API; unstructuredMap.Find).
    if (escaped === undefined || value[name] === null || value[name] === undefined || !hasDeclType(property)) continue;
    fields.set(escaped, toCelValue(value[name], property, property["x-kubernetes-embedded-resource"]));
  }
  return fields;
}

/**
 * Whether kube gives the schema a CEL type (SchemaDeclType): not for an "unknown type", a schema without type (and
 * not int-or-string), nor for lists of or maps to unknown types. Properties of unknown type are left out.
 */
export function hasDeclType(schema: RuleSchema): boolean {
  if (schema["x-kubernetes-int-or-string"]) return true;
  if (schema.type === "array") return schema.items === undefined || hasDeclType(schema.items);
  const values = mapValueSchema(schema);
  if (schema.type === "object" && values && !isFieldObject(schema)) return hasDeclType(values);
  return schema.type !== undefined;
}
