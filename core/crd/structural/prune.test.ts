import { expect, test } from "bun:test";
import { applySchemaDefaults } from "./defaults.ts";
import { pruneObject } from "./prune.ts";
import type { JSONSchemaProps } from "../../registry/apiextensions/mod.ts";

const SCHEMA: JSONSchemaProps = {
  type: "object",
  properties: {
    spec: {
      type: "object",
      properties: {
        items: { type: "array", items: { type: "object", properties: { name: { type: "string" } } } },
        free: { type: "object", "x-kubernetes-preserve-unknown-fields": true },
        labels: { type: "object", additionalProperties: { type: "string" } },
        template: { type: "object", "x-kubernetes-embedded-resource": true, properties: {} },
        replicas: { type: "integer", default: 1 },
        nested: { type: "object", default: {}, properties: { mode: { type: "string", default: "fast" } } },
      },
    },
  },
};

test("pruneObject() drops unknown fields, keeping preserved ones, map values and the envelope", () => {
  const obj = {
    apiVersion: "x/v1",
    kind: "X",
    metadata: { name: "a" },
    spec: {
      bogus: 1,
      items: [{ name: "n", extra: true }],
      free: { any: { thing: 1 } },
      labels: { a: "b" },
      template: { apiVersion: "v1", kind: "Pod", metadata: { name: "p" }, other: 1 },
    },
  };
  expect(pruneObject(obj, SCHEMA)).toEqual(["spec.bogus", "spec.items[0].extra", "spec.template.other"]);
  expect(obj.spec).toEqual(
    {
      items: [{ name: "n" }],
      free: { any: { thing: 1 } },
      labels: { a: "b" },
      template: { apiVersion: "v1", kind: "Pod", metadata: { name: "p" } },
    } as typeof obj.spec,
  );
});

test("applySchemaDefaults() fills missing fields, walks into defaulted objects and keeps set values", () => {
  const obj = { spec: { replicas: 5 } };
  applySchemaDefaults(obj, SCHEMA);
  expect(obj.spec).toEqual({ replicas: 5, nested: { mode: "fast" } } as typeof obj.spec);
  const withNull = { spec: { replicas: null } };
  applySchemaDefaults(withNull, SCHEMA);
  expect(withNull.spec.replicas).toBe(1 as unknown as null);
});

test("pruneObject() leaves metadata alone where the schema declares it as a bare object (prune: resource root)", () => {
  const obj = { apiVersion: "x/v1", kind: "X", metadata: { name: "a", labels: { app: "x" } }, spec: {} };
  const withMetadata: JSONSchemaProps = { ...SCHEMA, properties: { ...SCHEMA.properties, metadata: { type: "object" } } };
  expect(pruneObject(obj, withMetadata)).toEqual([]);
  expect(obj.metadata).toEqual({ name: "a", labels: { app: "x" } });
});
