/**
 * What /openapi/v2 cannot say of a custom resource's schema, removed as kube does so that kubectl's client-side
 * validation accepts what the server keeps (apiextensions-apiserver's ToStructuralOpenAPIV2 and the openapi
 * builder's buildKubeNative). Built-in definitions carry neither `nullable` nor `x-kubernetes-preserve-unknown-fields`.
 */
import type { Schema } from "../schema/types.ts";

const PRESERVE = "x-kubernetes-preserve-unknown-fields";
const GVK = "x-kubernetes-group-version-kind";

type Node = Record<string, unknown>;

/** One node after ToStructuralOpenAPIV2: untyped where kubectl would refuse unknown or null values. */
function structuralNode(schema: Schema): Schema {
  const out: Node = { ...schema };
  if (out.nullable === true) {
    delete out.type;
    delete out.nullable;
    delete out.items;
    delete out.properties;
  }
  if (out[PRESERVE] === true) {
    delete out.items;
    delete out.properties;
    if (out.type === "object") delete out.type;
  }
  if (out.items === undefined && out.type === "array") delete out.type;
  const properties = out.properties as Record<string, Schema> | undefined;
  if (properties) {
    const nullable = new Set(Object.keys(properties).filter((name) => (properties[name] as Node).nullable === true));
    if (Array.isArray(out.required) && nullable.size > 0) {
      const required = (out.required as string[]).filter((name) => !nullable.has(name));
      if (required.length > 0) out.required = required;
      else delete out.required;
    }
    out.properties = Object.fromEntries(Object.entries(properties).map(([name, child]) => [name, structuralNode(child)]));
  }
  if (typeof out.additionalProperties === "object") {
    if ((out.additionalProperties as Node).nullable === true) delete out.required;
    out.additionalProperties = structuralNode(out.additionalProperties as Schema);
  }
  if (out.items !== undefined) out.items = structuralNode(out.items as Schema);
  return out as Schema;
}

/**
 * A definition as /openapi/v2 publishes it: a custom resource whose root preserves unknown fields is only
 * `type: object` with its group/version/kind (no properties, not even metadata); any other is made structural-v2.
 */
export function v2Definition(schema: Schema): Schema {
  const node = schema as Node;
  if (node[PRESERVE] === true && node[GVK] !== undefined) return { type: "object", [GVK]: node[GVK] } as Schema;
  return structuralNode(schema);
}
