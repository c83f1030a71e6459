/**
 * A custom resource's schema in the project's Schema form, as kube publishes it in OpenAPI (builder.go of
 * apiextensions-apiserver): the structural schema plus apiVersion, kind and metadata (ObjectMeta), tagged
 * with its group/version/kind. Server-side apply reads list and map types from the same form.
 */
import type { Schema } from "../schema/types.ts";
import type { JSONSchemaProps } from "../registry/apiextensions/mod.ts";

const OBJECT_META = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta";

/** "stable.example.com", "v1", "CronTab" → "com.example.stable.v1.CronTab", kube's definition name. */
export function definitionName(group: string, version: string, kind: string): string {
  return `${group.split(".").reverse().join(".")}.${version}.${kind}`;
}

/** Structural schema → Schema: the same keywords, with embedded resources' metadata typed as ObjectMeta. */
function toSchema(props: JSONSchemaProps): Schema {
  const out: Record<string, unknown> = { ...props };
  if (props.properties) {
    out.properties = Object.fromEntries(Object.entries(props.properties).map(([name, child]) => [name, toSchema(child)]));
  }
  if (props.items) out.items = toSchema(props.items);
  if (typeof props.additionalProperties === "object") out.additionalProperties = toSchema(props.additionalProperties);
  for (const key of ["allOf", "anyOf", "oneOf", "not"] as const) delete out[key];
  if (props["x-kubernetes-embedded-resource"]) withEnvelope(out);
  return out as Schema;
}

function withEnvelope(schema: Record<string, unknown>): void {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  schema.properties = {
    ...properties,
    apiVersion: { type: "string", ...properties.apiVersion },
    kind: { type: "string", ...properties.kind },
    metadata: { ref: OBJECT_META },
  };
  schema.type = "object";
}

/** The published schema of one version of a custom resource kind. */
export function publishedSchema(group: string, version: string, kind: string, props: JSONSchemaProps | undefined): Schema {
  const schema = toSchema(props ?? { type: "object", "x-kubernetes-preserve-unknown-fields": true }) as Record<string, unknown>;
  withEnvelope(schema);
  schema["x-kubernetes-group-version-kind"] = [{ group, kind, version }];
  return schema as Schema;
}
