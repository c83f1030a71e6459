import { expect, test } from "bun:test";
import type { KubeObject } from "../api/types.ts";
import { validateCustomResourceDefinition } from "./validation.ts";

function crd(spec: Record<string, unknown>, name = "widgets.example.com"): KubeObject {
  return {
    apiVersion: "apiextensions.k8s.io/v1", kind: "CustomResourceDefinition", metadata: { name },
    spec: {
      group: "example.com", scope: "Namespaced", names: { plural: "widgets", kind: "Widget" },
      versions: [{ name: "v1", served: true, storage: true, schema: { openAPIV3Schema: { type: "object" } } }],
      ...spec,
    },
  };
}

test("a well-formed CRD has no errors", () => {
  expect(validateCustomResourceDefinition(crd({}))).toEqual([]);
});

test("the name must be <plural>.<group> and exactly one version is the storage version", () => {
  const errors = validateCustomResourceDefinition(crd({ versions: [{ name: "v1", served: true, storage: false, schema: { openAPIV3Schema: { type: "object" } } }] }, "wrong.example.com"));
  expect(errors.map((e) => `${e.field}: ${e.detail}`)).toEqual([
    'metadata.name: must be spec.names.plural+"."+spec.group',
    "spec.versions: must have exactly one version marked as storage version",
  ]);
});

test("webhook conversion is refused as unsupported, and schemas are required", () => {
  const errors = validateCustomResourceDefinition(crd({
    conversion: { strategy: "Webhook" },
    versions: [{ name: "v1", served: true, storage: true }],
  }));
  expect(errors.map((e) => `${e.type} ${e.field}`)).toEqual([
    "FieldValueRequired spec.versions[0].schema.openAPIV3Schema",
    "FieldValueForbidden spec.conversion.strategy",
  ]);
  expect(errors[1].detail).toContain("webhook conversion is not supported");
});
