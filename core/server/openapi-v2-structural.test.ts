import { expect, test } from "bun:test";
import { BUILT_IN_DEFINITIONS } from "../schema/builtin.gen.ts";
import type { Schema } from "../schema/types.ts";
import { v2Definition } from "./openapi-v2-structural.ts";

const gvk = [{ group: "example.com", kind: "Widget", version: "v1" }];

test("v2Definition() leaves every built-in definition as it is (none is nullable or preserves unknown fields)", () => {
  for (const [name, schema] of Object.entries(BUILT_IN_DEFINITIONS)) {
    expect({ name, schema: v2Definition(schema) }).toEqual({ name, schema });
  }
});

test("v2Definition() publishes a custom resource whose root preserves unknown fields as a bare object (kube's buildKubeNative)", () => {
  const root = {
    type: "object",
    "x-kubernetes-preserve-unknown-fields": true,
    properties: { spec: { type: "object" }, metadata: { ref: "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta" } },
    "x-kubernetes-group-version-kind": gvk,
  } as Schema;
  expect(v2Definition(root)).toEqual({ type: "object", "x-kubernetes-group-version-kind": gvk } as Schema);
});

test("v2Definition() strips nested preserve-unknown-fields and nullable nodes as kube's ToStructuralOpenAPIV2", () => {
  const root = {
    type: "object",
    required: ["spec", "note"],
    properties: {
      spec: {
        type: "object",
        "x-kubernetes-preserve-unknown-fields": true,
        properties: { size: { type: "integer" } },
      },
      note: { type: "string", nullable: true },
      tags: { type: "array", "x-kubernetes-preserve-unknown-fields": true, items: { type: "string" } },
      plain: { type: "object", properties: { size: { type: "integer" } } },
    },
    "x-kubernetes-group-version-kind": gvk,
  } as Schema;
  expect(v2Definition(root)).toEqual({
    type: "object",
    required: ["spec"],
    properties: {
      spec: { "x-kubernetes-preserve-unknown-fields": true },
      note: {},
      tags: { "x-kubernetes-preserve-unknown-fields": true },
      plain: { type: "object", properties: { size: { type: "integer" } } },
    },
    "x-kubernetes-group-version-kind": gvk,
  } as Schema);
});
