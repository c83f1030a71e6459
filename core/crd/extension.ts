/** How the generic store treats one served version of a custom resource: its schema, storage version, conversion and merge type. */
import { apiVersionOf, type KubeObject } from "../api/types.ts";
import { typeFromSchema, type TypeNode } from "../apply/ssa/mod.ts";
import type { ConvertObjects, StoreExtension } from "../registry/store-extension.ts";
import { builtInSchemas } from "../schema/lookup.ts";
import { ruleValidator } from "../cel/mod.ts";
import type { CRDVersion, CustomResourceDefinition } from "../registry/apiextensions/mod.ts";
import { publishedSchema } from "./published-schema.ts";
import { applySchemaDefaults } from "./structural/defaults.ts";
import { pruneObject } from "./structural/prune.ts";
import type { JSONSchemaProps } from "../registry/apiextensions/mod.ts";
import { validateValue } from "./structural/validate.ts";
import { customResourcePrinter } from "./printer.ts";
import { withValidationRules } from "./validation-rules.ts";

/** Without a schema (not possible in v1, kept for safety) every field is kept. */
const ANYTHING: JSONSchemaProps = { type: "object", "x-kubernetes-preserve-unknown-fields": true };

/** The schema without the envelope fields, which ObjectMeta validation and the store handle. */
function bodySchema(schema: JSONSchemaProps): JSONSchemaProps {
  const { apiVersion: _a, kind: _k, metadata: _m, ...properties } = schema.properties ?? {};
  return { ...schema, properties, required: schema.required?.filter((name) => name !== "metadata") };
}

function bodyOf(obj: KubeObject): Record<string, unknown> {
  const { apiVersion: _a, kind: _k, metadata: _m, ...body } = obj;
  return body;
}

/** The merge type of the CRD's version `apiVersion` (served or not), undefined when the CRD lists no such version. */
function mergeTypeOf(crd: CustomResourceDefinition, apiVersion: string): TypeNode | undefined {
  const version = crd.spec.versions.find((v) => apiVersionOf(crd.spec.group, v.name) === apiVersion);
  if (!version) return undefined;
  return typeFromSchema(
    publishedSchema(crd.spec.group, version.name, crd.spec.names.kind, version.schema?.openAPIV3Schema),
    builtInSchemas,
  );
}

export function customResourceExtension(
  crd: CustomResourceDefinition,
  version: CRDVersion,
  storageVersion: string,
  convert: ConvertObjects,
): StoreExtension {
  const schema = version.schema?.openAPIV3Schema ?? ANYTHING;
  const body = bodySchema(schema);
  const published = publishedSchema(crd.spec.group, version.name, crd.spec.names.kind, version.schema?.openAPIV3Schema);
  const otherTypes = new Map<string, TypeNode | undefined>();
  return {
    // Custom resources count generations: any change outside metadata (and status, with a status subresource) bumps it.
    // customResourceStrategy: generation tracked, AllowUnconditionalUpdate false; its statusStrategy.PrepareForUpdate
    // copies the stored object but status and managedFields, and its GetResetFields names only spec.
    strategy: { tracksGeneration: true, allowUnconditionalUpdate: false, statusKeepsMetadata: "all" },
    prune: (obj) => pruneObject(obj as unknown as Record<string, unknown>, schema),
    applyDefaults: (obj) => applySchemaDefaults(obj, schema),
    validate: withValidationRules((obj) => validateValue(bodyOf(obj), body, ""), ruleValidator(schema)),
    printer: customResourcePrinter(version.additionalPrinterColumns),
    storageApiVersion: apiVersionOf(crd.spec.group, storageVersion),
    convert,
    mergeType: typeFromSchema(published, builtInSchemas),
    versionMergeType: (apiVersion) => {
      if (!otherTypes.has(apiVersion)) otherTypes.set(apiVersion, mergeTypeOf(crd, apiVersion));
      return otherTypes.get(apiVersion);
    },
    terminating: crd.metadata.deletionTimestamp !== undefined,
  };
}
