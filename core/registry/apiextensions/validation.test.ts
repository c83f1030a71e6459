import { expect, test } from "bun:test";
import type { KubeObject } from "../../api/types.ts";
import { validateCustomResourceDefinition } from "./validation.ts";

function crd(spec: Record<string, unknown>, name = "widgets.example.com"): KubeObject {
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name },
    spec: {
      group: "example.com",
      scope: "Namespaced",
      names: { plural: "widgets", kind: "Widget" },
      versions: [{ name: "v1", served: true, storage: true, schema: { openAPIV3Schema: { type: "object" } } }],
      ...spec,
    },
  };
}

test("a well-formed CRD has no errors", () => {
  expect(validateCustomResourceDefinition(crd({}))).toEqual([]);
});

test("the name must be <plural>.<group> and exactly one version is the storage version", () => {
  const errors = validateCustomResourceDefinition(
    crd({ versions: [{ name: "v1", served: true, storage: false, schema: { openAPIV3Schema: { type: "object" } } }] }, "wrong.example.com"),
  );
  expect(errors.map((e) => `${e.field}: ${e.detail}`)).toEqual([
    'metadata.name: must be spec.names.plural+"."+spec.group',
    "spec.versions: must have exactly one version marked as storage version",
  ]);
});

test("schemas are required; webhook conversion needs a clientConfig and a known review version (ValidateCustomResourceConversion)", () => {
  const errors = validateCustomResourceDefinition(crd({
    conversion: { strategy: "Webhook", webhook: { conversionReviewVersions: ["v2"] } },
    versions: [{ name: "v1", served: true, storage: true }],
  }));
  expect(errors.map((e) => `${e.type} ${e.field}: ${e.detail}`)).toEqual([
    "FieldValueRequired spec.versions[0].schema.openAPIV3Schema: schemas are required",
    "FieldValueRequired spec.conversion.webhookClientConfig: required when strategy is set to Webhook",
    "FieldValueInvalid spec.conversion.conversionReviewVersions: must include at least one of v1, v1beta1",
  ]);
  const none = validateCustomResourceDefinition(crd({ conversion: { strategy: "None", webhook: { conversionReviewVersions: ["v1"] } } }));
  expect(none.map((e) => `${e.field}: ${e.detail}`)).toEqual([
    "spec.conversion.conversionReviewVersions: should not be set when strategy is not set to Webhook",
  ]);
  const webhook = {
    strategy: "Webhook",
    webhook: { conversionReviewVersions: ["v1beta1", "v1"], clientConfig: { url: "https://example.com/convert" } },
  };
  expect(validateCustomResourceDefinition(crd({ conversion: webhook }))).toEqual([]);
});

test("a conversion webhook's clientConfig follows the webhook rules (ValidateWebhookURL)", () => {
  const conversion = {
    strategy: "Webhook",
    webhook: { conversionReviewVersions: ["v1"], clientConfig: { url: "http://example.com/convert" } },
  };
  expect(validateCustomResourceDefinition(crd({ conversion })).map((e) => `${e.field}: ${e.detail}`)).toEqual([
    "spec.conversion.webhookClientConfig.url: 'https' is the only allowed URL scheme; desired format: https://host[/path]",
  ]);
});

test("rule errors sit under spec.validation when every version shares the schema, else under each version (v1 → internal conversion)", () => {
  const schema = (rule: string) => ({
    openAPIV3Schema: { type: "object", properties: { spec: { type: "object", "x-kubernetes-validations": [{ rule }] } } },
  });
  const shared = validateCustomResourceDefinition(crd({
    versions: [
      { name: "v1", served: true, storage: true, schema: schema("nope") },
      { name: "v2", served: true, storage: false, schema: schema("nope") },
    ],
  }));
  expect(shared.map((e) => e.field)).toEqual(["spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule"]);
  const distinct = validateCustomResourceDefinition(crd({
    versions: [
      { name: "v1", served: true, storage: true, schema: schema("true") },
      { name: "v2", served: true, storage: false, schema: schema("nope") },
    ],
  }));
  expect(distinct.map((e) => e.field)).toEqual([
    "spec.versions[1].schema.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule",
  ]);
});
