/**
 * The schemas compiled into what the field check walks: one node per definition (cached, fields compiled
 * on first visit) carrying the Go type name kube's decoder prints in its errors.
 */
import type { SchemaLookup } from "./lookup.ts";
import type { Schema } from "./types.ts";
import { RFC3339, RFC3339_MICRO } from "./_field-time.ts";

export type ScalarType = "int32" | "int64" | "float64" | "string" | "bool";

export type FieldNode =
  | StructNode
  | { kind: "map"; goType: string; value: FieldNode }
  | { kind: "array"; goType: string; item: FieldNode }
  | { kind: "scalar"; goType: ScalarType }
  | { kind: "bytes"; goType: "[]uint8" }
  | { kind: "quantity" }
  | { kind: "intOrString" }
  | { kind: "time"; layout: typeof RFC3339 | typeof RFC3339_MICRO }
  /** Anything goes: raw JSON (RawExtension, FieldsV1, JSON), preserved or embedded subtrees. */
  | { kind: "raw" };

export interface StructNode {
  kind: "struct";
  /** Go's name of the struct, e.g. "DeploymentSpec"; goType adds the package, e.g. "v1.DeploymentSpec". */
  name: string;
  goType: string;
  /** x-kubernetes-preserve-unknown-fields: unknown keys are kept. */
  keepsUnknown: boolean;
  properties: Record<string, Schema>;
  compiled?: Map<string, FieldNode>;
}

const APIMACHINERY = "io.k8s.apimachinery.pkg";
const SPECIAL: Record<string, FieldNode> = {
  [`${APIMACHINERY}.api.resource.Quantity`]: { kind: "quantity" },
  [`${APIMACHINERY}.util.intstr.IntOrString`]: { kind: "intOrString" },
  [`${APIMACHINERY}.apis.meta.v1.Time`]: { kind: "time", layout: RFC3339 },
  [`${APIMACHINERY}.apis.meta.v1.MicroTime`]: { kind: "time", layout: RFC3339_MICRO },
  [`${APIMACHINERY}.runtime.RawExtension`]: { kind: "raw" },
  [`${APIMACHINERY}.apis.meta.v1.FieldsV1`]: { kind: "raw" },
  [`${APIMACHINERY}.apis.meta.v1.Patch`]: { kind: "raw" },
};
const RAW: FieldNode = { kind: "raw" };

export interface FieldNodes {
  /** The root node of a kind, or undefined for kinds without a schema. */
  forKind(group: string, version: string, kind: string): StructNode | undefined;
  /** The fields of a struct node, compiled on first use. */
  fieldsOf(node: StructNode): Map<string, FieldNode>;
}

/** Go's `pkg.Name` for a definition such as io.k8s.api.apps.v1.DeploymentSpec. */
function goNames(definition: string): { name: string; goType: string } {
  const parts = definition.split(".");
  const name = parts[parts.length - 1];
  return { name, goType: `${parts[parts.length - 2]}.${name}` };
}

export function createFieldNodes(lookup: SchemaLookup): FieldNodes {
  const byDefinition = new Map<string, FieldNode>();

  const definitionNode = (name: string): FieldNode => {
    const cached = byDefinition.get(name) ?? SPECIAL[name];
    if (cached) return cached;
    const node = compile(lookup.resolve(name), goNames(name));
    byDefinition.set(name, node);
    return node;
  };

  const compile = (schema: Schema, names?: { name: string; goType: string }): FieldNode => {
    if (schema["x-kubernetes-preserve-unknown-fields"] && !schema.properties) return RAW;
    if (schema["x-kubernetes-embedded-resource"]) return RAW;
    if (schema.ref) return definitionNode(schema.ref);
    if (schema["x-kubernetes-int-or-string"]) return { kind: "intOrString" };
    switch (schema.type) {
      case "object": {
        if (schema.properties) {
          const { name, goType } = names ?? { name: "", goType: "struct" };
          const keepsUnknown = schema["x-kubernetes-preserve-unknown-fields"] === true;
          return { kind: "struct", name, goType, keepsUnknown, properties: schema.properties };
        }
        if (typeof schema.additionalProperties !== "object") return RAW;
        const value = compile(schema.additionalProperties);
        return { kind: "map", goType: `map[string]${goTypeOf(value)}`, value };
      }
      case "array": {
        const item = schema.items ? compile(schema.items) : RAW;
        return { kind: "array", goType: `[]${goTypeOf(item)}`, item };
      }
      case "integer":
        return { kind: "scalar", goType: schema.format === "int32" ? "int32" : "int64" };
      case "number":
        return { kind: "scalar", goType: "float64" };
      case "boolean":
        return { kind: "scalar", goType: "bool" };
      case "string":
        if (schema.format === "byte") return { kind: "bytes", goType: "[]uint8" };
        if (schema.format === "date-time") return { kind: "time", layout: RFC3339 };
        return { kind: "scalar", goType: "string" };
      default:
        return RAW;
    }
  };

  const kindNodes = new Map<string, StructNode | undefined>();
  return {
    forKind(group, version, kind) {
      const key = `${group}/${version}/${kind}`;
      if (kindNodes.has(key)) return kindNodes.get(key);
      const name = lookup.definitionNameFor(group, version, kind);
      const node = name === undefined ? undefined : definitionNode(name);
      const root = node?.kind === "struct" ? node : undefined;
      kindNodes.set(key, root);
      return root;
    },
    fieldsOf(node) {
      if (node.compiled) return node.compiled;
      const compiled = new Map<string, FieldNode>();
      for (const [field, schema] of Object.entries(node.properties)) compiled.set(field, compile(schema));
      node.compiled = compiled;
      return compiled;
    },
  };
}

/** The Go type kube's decoder names for a value of this node. */
export function goTypeOf(node: FieldNode): string {
  switch (node.kind) {
    case "quantity":
      return "resource.Quantity";
    case "intOrString":
      return "intstr.IntOrString";
    case "time":
      return node.layout === RFC3339 ? "v1.Time" : "v1.MicroTime";
    case "raw":
      return "interface {}";
    default:
      return node.goType;
  }
}
