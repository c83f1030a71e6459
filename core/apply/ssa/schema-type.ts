/**
 * How structured-merge-diff sees a schema (kube-openapi's schemaconv): scalars, maps/structs (granular or
 * atomic) and lists (atomic, set, or map keyed by list-map-keys / patch-merge-key). Kinds without a schema
 * (custom resources) are "deduced": objects are granular maps whose every key is owned, lists are atomic.
 */
import { isPlainObject } from "../../api/types.ts";
import { builtInSchemas, type SchemaLookup } from "../../schema/lookup.ts";
import type { Schema } from "../../schema/types.ts";

export type TypeNode = ScalarType | MapType | ListType | DeducedType;

export interface ScalarType {
  kind: "scalar";
}

export interface DeducedType {
  kind: "deduced";
}

export interface MapType {
  kind: "map";
  atomic: boolean;
  /** Type of a declared struct field; undefined for keys the struct does not declare. */
  field(name: string): TypeNode | undefined;
  /** Type of undeclared keys (a map's values); undefined for a plain struct. */
  element?: TypeNode;
  /** Fields whose schema default is `{}`: Go's non-pointer structs, present in a zero object. */
  zeroFields: string[];
  /** Required fields without a default: Go writes them as null in a zero object (nil slices and pointers). */
  nullFields: string[];
}

export interface ListType {
  kind: "list";
  relationship: "atomic" | "set" | "map";
  keys: string[];
  /** Defaults of key fields, used when an item omits a key (e.g. ports' protocol "TCP"). */
  keyDefaults: Record<string, unknown>;
  element: TypeNode;
}

export const SCALAR: ScalarType = { kind: "scalar" };
export const DEDUCED: DeducedType = { kind: "deduced" };
const DEDUCED_MAP: MapType = { kind: "map", atomic: false, field: () => undefined, element: DEDUCED, zeroFields: [], nullFields: [] };
const ATOMIC_LIST: ListType = { kind: "list", relationship: "atomic", keys: [], keyDefaults: {}, element: DEDUCED };
const ATOMIC_MAP: MapType = { kind: "map", atomic: true, field: () => undefined, element: DEDUCED, zeroFields: [], nullFields: [] };

/** The concrete type to walk `value` with: a deduced type takes its shape from the value. */
export function resolveType(type: TypeNode, value: unknown): ScalarType | MapType | ListType {
  if (type.kind !== "deduced") return type;
  if (isPlainObject(value)) return DEDUCED_MAP;
  if (Array.isArray(value)) return ATOMIC_LIST;
  return SCALAR;
}

/** Whether values of the type are owned piece by piece; the others are owned and replaced as a whole. */
export function isGranular(type: ScalarType | MapType | ListType): type is MapType | ListType {
  if (type.kind === "map") return !type.atomic;
  return type.kind === "list" && type.relationship !== "atomic";
}

const cache = new WeakMap<Schema, TypeNode>();

/** The type structured-merge-diff derives from an OpenAPI schema (refs followed through `lookup`). */
export function typeFromSchema(schema: Schema, lookup: SchemaLookup = builtInSchemas): TypeNode {
  const cached = cache.get(schema);
  if (cached) return cached;
  const type = convert(schema, lookup);
  cache.set(schema, type);
  return type;
}

function convert(declared: Schema, lookup: SchemaLookup): TypeNode {
  const schema = declared.ref ? { ...lookup.resolve(declared), ...withoutRef(declared) } : declared;
  if (schema.type === "array" || schema.items) return listType(schema, lookup);
  const atomic = schema["x-kubernetes-map-type"] === "atomic";
  const properties = schema.properties;
  const additional = isPlainObject(schema.additionalProperties) ? schema.additionalProperties as Schema : undefined;
  if (properties || additional) {
    // Each declared field's type, looked up once: the walkers ask for it at every key of every write.
    const fields = new Map<string, TypeNode>();
    return {
      kind: "map",
      atomic,
      field: (name) => {
        if (!properties || !Object.hasOwn(properties, name)) return undefined;
        let field = fields.get(name);
        if (field === undefined) fields.set(name, field = typeFromSchema(properties[name], lookup));
        return field;
      },
      element: additional ? typeFromSchema(additional, lookup) : schema["x-kubernetes-preserve-unknown-fields"] ? DEDUCED : undefined,
      zeroFields: Object.entries(properties ?? {}).filter(([, s]) => isEmptyObject(s.default)).map(([name]) => name),
      nullFields: (schema.required ?? []).filter((name) => properties?.[name] !== undefined && properties[name].default === undefined),
    };
  }
  if (schema["x-kubernetes-preserve-unknown-fields"]) return DEDUCED;
  if (schema.type === "object") return ATOMIC_MAP;
  if (schema.type === undefined && !schema.oneOf && !schema["x-kubernetes-int-or-string"]) return DEDUCED;
  return SCALAR;
}

function withoutRef(schema: Schema): Schema {
  const { ref: _ref, default: _default, ...rest } = schema;
  return rest;
}

function isEmptyObject(value: unknown): boolean {
  return isPlainObject(value) && Object.keys(value).length === 0;
}

/** kube-openapi's list rules: list-type wins; else patch strategy merge makes a keyed (or set) list; else atomic. */
function listType(schema: Schema, lookup: SchemaLookup): ListType {
  const element = schema.items ? typeFromSchema(schema.items, lookup) : DEDUCED;
  const listKind = schema["x-kubernetes-list-type"];
  const strategy = schema["x-kubernetes-patch-strategy"] ?? "";
  let relationship: ListType["relationship"] = "atomic";
  let keys: string[] = [];
  if (listKind === "set") relationship = "set";
  else if (listKind === "map") [relationship, keys] = ["map", schema["x-kubernetes-list-map-keys"] ?? []];
  else if (listKind === undefined && strategy.split(",").includes("merge")) {
    const mergeKey = schema["x-kubernetes-patch-merge-key"];
    [relationship, keys] = mergeKey ? ["map", [mergeKey]] : ["set", []];
  }
  const itemSchema = schema.items ? lookup.resolve(schema.items) : undefined;
  const keyDefaults: Record<string, unknown> = {};
  for (const key of keys) {
    const value = itemSchema?.properties?.[key]?.default;
    if (value !== undefined) keyDefaults[key] = value;
  }
  return { kind: "list", relationship, keys, keyDefaults, element };
}

/** The type of a kind: its built-in schema, or deduced for kinds without one (custom resources). */
export function typeForKind(group: string, version: string, kind: string): TypeNode {
  const schema = builtInSchemas.schemaForKind(group, version, kind);
  return schema ? typeFromSchema(schema) : DEDUCED;
}

/** Go's zero value of the kind as JSON: the non-pointer structs, empty (what kube compares a created object with). */
export function zeroObject(type: TypeNode): Record<string, unknown> {
  const resolved = resolveType(type, {});
  const out: Record<string, unknown> = {};
  if (resolved.kind !== "map") return out;
  for (const name of resolved.nullFields) out[name] = null;
  for (const name of resolved.zeroFields) out[name] = zeroObject(resolved.field(name)!);
  // ObjectMeta's creationTimestamp is a non-pointer metav1.Time, which Go writes as null.
  if (resolved.field("creationTimestamp") && resolved.field("generateName")) out.creationTimestamp = null;
  return out;
}
