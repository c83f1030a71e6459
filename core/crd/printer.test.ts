import { expect, test } from "bun:test";
import { customResourcePrinter } from "./printer.ts";

const NOW = new Date("2024-01-01T01:00:00Z");
const OBJ = {
  apiVersion: "x/v1",
  kind: "X",
  metadata: { name: "a", creationTimestamp: "2024-01-01T00:00:00Z" },
  spec: { replicas: 2, tags: ["p", "q"] },
};

test("customResourcePrinter() shows Name and Age when the CRD declares no columns", () => {
  const printer = customResourcePrinter(undefined);
  expect(printer.columns.map((c) => c.name)).toEqual(["Name", "Age"]);
  expect(printer.cells(OBJ, NOW)).toEqual(["a", "60m"]);
});

test("customResourcePrinter() fills declared columns by JSONPath and type, null when absent", () => {
  const printer = customResourcePrinter([
    { name: "Replicas", type: "integer", jsonPath: ".spec.replicas" },
    { name: "Tags", type: "string", jsonPath: ".spec.tags[*]", priority: 1 },
    { name: "Ready", type: "boolean", jsonPath: ".status.ready" },
  ]);
  expect(printer.columns.map((c) => [c.name, c.type, c.priority])).toEqual([["Name", "string", 0], ["Replicas", "integer", 0], [
    "Tags",
    "string",
    1,
  ], ["Ready", "boolean", 0]]);
  expect(printer.cells(OBJ, NOW)).toEqual(["a", 2, "p,q", null]);
});
