/**
 * Representative objects built from the generated schemas for codec tests: one non-zero value per scalar,
 * one item per array and map, nested objects down to a depth limit, and kube's special JSON forms
 * (int-or-string, quantities, RFC 3339 times, base64 bytes, raw embedded objects).
 */
import type { SchemaLookup } from "../schema/lookup.ts";
import type { Schema } from "../schema/types.ts";

type Json = Record<string, unknown>;

const MAX_DEPTH = 9;
const META = "io.k8s.apimachinery.pkg.apis.meta.v1.";
const EXTENSIONS = "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.";

/** Values of definitions whose JSON is not an object of their properties. */
const SPECIAL_VALUES: Record<string, unknown> = {
  [`${META}Time`]: "2024-05-01T10:00:00Z",
  [`${META}MicroTime`]: "2024-05-01T10:00:00.123456Z",
  [`${META}FieldsV1`]: { "f:metadata": { "f:labels": {} } },
  "io.k8s.apimachinery.pkg.api.resource.Quantity": "250m",
  "io.k8s.apimachinery.pkg.util.intstr.IntOrString": "25%",
  "io.k8s.apimachinery.pkg.runtime.RawExtension": { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "embedded" } },
  [`${EXTENSIONS}JSON`]: { answer: 42 },
  [`${EXTENSIONS}JSONSchemaPropsOrBool`]: true,
  [`${EXTENSIONS}JSONSchemaPropsOrArray`]: { type: "string" },
  [`${EXTENSIONS}JSONSchemaPropsOrStringArray`]: ["dependency"],
};

interface Walk {
  lookup: SchemaLookup;
  depth: number;
  /** Definitions on the current path, so recursive types stop instead of looping. */
  seen: ReadonlySet<string>;
}

function scalarSample(schema: Schema, field: string): unknown {
  if (schema.enum && schema.enum.length > 0) return schema.enum[0];
  switch (schema.type) {
    case "integer":
      return 3;
    case "number":
      return 1.5;
    case "boolean":
      return true;
    case "string":
      if (schema.format === "byte") return "aGVsbG8=";
      if (schema.format === "date-time") return "2024-05-01T10:00:00Z";
      return `${field}-value`;
  }
  if (schema["x-kubernetes-int-or-string"] || schema.format === "int-or-string") return 8;
  return undefined;
}

// kube's generated.proto has no TypeMeta: a kind embedded in another object (a StatefulSet's claim templates) loses these.
const TYPE_META = new Set(["apiVersion", "kind"]);

function objectSample(schema: Schema, walk: Walk): Json | undefined {
  const out: Json = {};
  const embeddedKind = walk.depth > 1 && schema["x-kubernetes-group-version-kind"] !== undefined;
  for (const [field, property] of Object.entries(schema.properties ?? {})) {
    if (embeddedKind && TYPE_META.has(field)) continue;
    const value = sampleOf(property, field, walk);
    if (value !== undefined) out[field] = value;
  }
  if (schema.additionalProperties && typeof schema.additionalProperties === "object") {
    const value = sampleOf(schema.additionalProperties, "entry", walk);
    // A map whose values lie past the depth limit is left out rather than written empty (JSON omits empty maps).
    if (value === undefined) return schema.properties ? out : undefined;
    out.key = value;
  }
  return out;
}

function sampleOf(schema: Schema, field: string, walk: Walk): unknown {
  if (walk.depth > MAX_DEPTH) return undefined;
  if (schema.ref !== undefined) {
    if (Object.hasOwn(SPECIAL_VALUES, schema.ref)) return structuredClone(SPECIAL_VALUES[schema.ref]);
    if (walk.seen.has(schema.ref)) return undefined;
    const seen = new Set(walk.seen).add(schema.ref);
    return sampleOf(walk.lookup.resolve(schema), field, { ...walk, seen });
  }
  const inner = { ...walk, depth: walk.depth + 1 };
  if (schema.type === "array") {
    const item = schema.items ? sampleOf(schema.items, field, inner) : undefined;
    return item === undefined ? undefined : [item];
  }
  if (schema.type === "object" || schema.properties) return objectSample(schema, inner);
  return scalarSample(schema, field);
}

/** A filled-in object of the kind (apiVersion and kind set), or undefined when the kind has no schema. */
export function sampleObject(lookup: SchemaLookup, type: { group: string; version: string; kind: string }): Json | undefined {
  const name = lookup.definitionNameFor(type.group, type.version, type.kind);
  if (name === undefined) return undefined;
  const apiVersion = type.group === "" ? type.version : `${type.group}/${type.version}`;
  const object = sampleOf({ ref: name }, "object", { lookup, depth: 0, seen: new Set() }) as Json;
  return { ...object, apiVersion, kind: type.kind };
}
