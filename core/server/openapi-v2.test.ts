import { expect, test } from "bun:test";
import { v2Schema } from "./openapi-v2.ts";

test("v2Schema() writes refs as plain $ref beside their extensions and drops defaults", () => {
  expect(v2Schema({
    type: "object",
    properties: {
      strategy: { ref: "a.Strategy", default: {}, "x-kubernetes-patch-strategy": "retainKeys" },
      names: { type: "array", items: { type: "string", default: "" } },
    },
  })).toEqual({
    type: "object",
    properties: {
      strategy: { $ref: "#/definitions/a.Strategy", "x-kubernetes-patch-strategy": "retainKeys" },
      names: { type: "array", items: { type: "string" } },
    },
  });
});

test("v2Schema() writes multi-type scalars as strings, keeping their format", () => {
  expect(v2Schema({ format: "int-or-string", oneOf: [{ type: "integer" }, { type: "string" }] }))
    .toEqual({ format: "int-or-string", type: "string" });
  expect(v2Schema({ oneOf: [{ type: "string" }, { type: "number" }] })).toEqual({ type: "string" });
});
