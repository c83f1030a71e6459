import { expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { API_DATA_DIR, buildDefinitions, readApiData, renderSchemaModule, SCHEMA_MODULE_PATH } from "./gen-schemas.ts";
import { compactSchema } from "./schema-from-openapi.ts";

test("builtin.gen.ts is what scripts/gen-schemas.ts generates from ../shared", () => {
  if (!existsSync(API_DATA_DIR)) {
    console.log("builtin.gen.ts freshness check skipped: ../shared/k8s-api-1.26 is absent");
    return;
  }
  expect(readFileSync(SCHEMA_MODULE_PATH, "utf8")).toBe(renderSchemaModule(buildDefinitions(readApiData)));
});

test("compactSchema() unwraps allOf refs, keeps extensions and defaults, drops descriptions", () => {
  const compact = compactSchema({
    description: "prose",
    type: "object",
    properties: {
      strategy: {
        allOf: [{ $ref: "#/components/schemas/io.k8s.api.apps.v1.DeploymentStrategy" }],
        default: {},
        description: "prose",
        "x-kubernetes-patch-strategy": "retainKeys",
      },
      items: { type: "array", items: { $ref: "#/components/schemas/a.B" } },
    },
  });
  expect(compact).toEqual({
    type: "object",
    properties: {
      items: { type: "array", items: { ref: "a.B" } },
      strategy: { ref: "io.k8s.api.apps.v1.DeploymentStrategy", default: {}, "x-kubernetes-patch-strategy": "retainKeys" },
    },
  });
  expect(Object.keys(compact.properties!)).toEqual(["items", "strategy"]);
});

test("compactSchema() rejects keys it does not know, so new upstream facts are noticed", () => {
  expect(() => compactSchema({ type: "string", pattern: "^a$" })).toThrow("unexpected schema key pattern");
});
