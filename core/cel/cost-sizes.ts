/**
 * The sizes the cost estimator asks for by field path (cel-go's CostEstimator.EstimateSize): from the schema as
 * kube's sizeEstimator reads the DeclType tree of model.SchemaDeclType (1.26) for the check at CRD creation.
 */
import { type Range, UNKNOWN_SIZE } from "./cost-estimate.ts";
import { escapePropertyName } from "./escape.ts";
import { isFieldObject, mapValueSchema, type RuleSchema, withTypeAndObjectMeta } from "./schema.ts";
import { hasDeclType } from "./values.ts";

/** Where sizes come from: a path's node (undefined when unknown; path[0] is the variable), and the unknown size. */
export interface SizeLookup {
  byPath(path: string[]): Range | undefined;
  /** cel-go's UnknownSizeEstimate [0, MaxUint64]. */
  unknown: Range;
}

/** celconfig.MaxRequestSizeBytes: 3 MiB, the largest object a request carries. */
export const MAX_REQUEST_SIZE_BYTES = 3 * 1024 * 1024;
/** Limits of apiserver/pkg/cel/limits.go. */
const MAX_DURATION_SIZE_JSON = 32;
const MAX_DATETIME_SIZE_JSON = 32;
const MIN_DURATION_SIZE_JSON = 3;
const JSON_DATE_SIZE = 12;
const MIN_DATETIME_SIZE_JSON = 21;
const MIN_STRING_SIZE = 2;
const MIN_BOOL_SIZE = 4;
const MIN_NUMBER_SIZE = 1;

const zeroIfNegative = (value: number): number => Math.max(0, value);

function isMap(schema: RuleSchema): boolean {
  return schema.type === "object" && !isFieldObject(schema) && mapValueSchema(schema) !== undefined;
}

/** DeclType.MinSerializedSize: the shortest JSON of a value; an object counts its required fields without defaults. */
export function minSerializedSize(schema: RuleSchema): number {
  if (schema["x-kubernetes-int-or-string"]) return 1;
  switch (schema.type) {
    case "array":
      return 2;
    case "object": {
      if (isMap(schema)) return 2;
      let size = 2;
      const required = new Set(schema.required ?? []);
      for (const [name, property] of Object.entries(schema.properties ?? {})) {
        if (required.has(name) && property.default === undefined && hasDeclType(property)) {
          size += name.length + minSerializedSize(property) + 4;
        }
      }
      return size;
    }
    case "string": {
      const byFormat: Record<string, number> = {
        duration: MIN_DURATION_SIZE_JSON,
        date: JSON_DATE_SIZE,
        "date-time": MIN_DATETIME_SIZE_JSON,
      };
      return byFormat[schema.format ?? ""] ?? MIN_STRING_SIZE;
    }
    case "boolean":
      return MIN_BOOL_SIZE;
  }
  return MIN_NUMBER_SIZE;
}

/** estimateMaxStringLengthPerRequest */
function maxStringLength(schema: RuleSchema): number {
  const byFormat: Record<string, number> = { duration: MAX_DURATION_SIZE_JSON, date: JSON_DATE_SIZE, "date-time": MAX_DATETIME_SIZE_JSON };
  return byFormat[schema.format ?? ""] ?? MAX_REQUEST_SIZE_BYTES - 2;
}

/**
 * DeclType.MaxElements of a schema node: items of a list (maxItems, else estimateMaxArrayItemsFromMinSize), entries
 * of a map (maxProperties, else estimateMaxAdditionalPropertiesFromMinSize), length of a string (maxLength × 4, as
 * kube counts bytes), 0 for objects and other scalars.
 */
function maxElements(schema: RuleSchema): number {
  if (schema["x-kubernetes-int-or-string"]) return MAX_REQUEST_SIZE_BYTES - 2;
  switch (schema.type) {
    case "array":
      if (schema.maxItems !== undefined) return zeroIfNegative(schema.maxItems);
      return Math.floor((MAX_REQUEST_SIZE_BYTES - 2) / (minSerializedSize(schema.items ?? {}) + 1));
    case "object": {
      const values = mapValueSchema(schema);
      if (!isMap(schema) || !values) return 0;
      if (schema.maxProperties !== undefined) return zeroIfNegative(schema.maxProperties);
      return Math.floor((MAX_REQUEST_SIZE_BYTES - 2) / (minSerializedSize(values) + 6));
    }
    case "string":
      if (schema.format === "byte") return schema.maxLength !== undefined ? zeroIfNegative(schema.maxLength) : maxStringLength(schema);
      if (schema.format === "duration" || schema.format === "date" || schema.format === "date-time") return maxStringLength(schema);
      return schema.maxLength !== undefined ? zeroIfNegative(schema.maxLength) * 4 : maxStringLength(schema);
  }
  return 0;
}

/** A node of kube's DeclType tree: a schema, or the string keys of a map (apiservercel.StringType, MaxElements 0). */
type DeclNode = { schema: RuleSchema } | { mapKey: true };

function declSchema(schema: RuleSchema): RuleSchema {
  return schema["x-kubernetes-embedded-resource"] ? withTypeAndObjectMeta(schema) : schema;
}

function step(node: DeclNode, name: string): DeclNode | undefined {
  if (!("schema" in node)) return undefined;
  const schema = node.schema;
  if (schema["x-kubernetes-int-or-string"]) return undefined;
  const elem = schema.type === "array" ? schema.items : isMap(schema) ? mapValueSchema(schema) : undefined;
  switch (name) {
    case "@items":
    case "@values":
      return elem && hasDeclType(elem) ? { schema: declSchema(elem) } : undefined;
    case "@keys":
      return isMap(schema) ? { mapKey: true } : undefined;
  }
  if (!isFieldObject(schema)) return undefined;
  for (const [property, propertySchema] of Object.entries(schema.properties ?? {})) {
    if (escapePropertyName(property) === name && hasDeclType(propertySchema)) return { schema: declSchema(propertySchema) };
  }
  return undefined;
}

/**
 * kube's sizeEstimator.EstimateSize (apiextensions cel compilation.go): the first path element is dropped whatever
 * it names (self, oldSelf, or an iteration variable's range), the rest walks the DeclType tree; [0, MaxElements].
 */
export function schemaSizeLookup(schema: RuleSchema, resourceRoot: boolean): SizeLookup {
  const root: DeclNode = { schema: resourceRoot ? withTypeAndObjectMeta(schema) : schema };
  const byPath = (path: string[]): Range | undefined => {
    let node: DeclNode | undefined = root;
    for (const name of path.slice(1)) {
      node = step(node, name);
      if (!node) return undefined;
    }
    return { min: 0n, max: BigInt("schema" in node ? maxElements(node.schema) : 0) };
  };
  return { byPath, unknown: UNKNOWN_SIZE };
}
