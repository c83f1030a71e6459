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
  // tableconvertor's ConvertToTable keeps only the first value a JSONPath finds.
  expect(printer.cells(OBJ, NOW)).toEqual(["a", 2, "p", null]);
});

test("customResourcePrinter() keeps a value only in a column of its type, as tableconvertor's cellForJSONValue", () => {
  const columns = [
    { name: "Int", type: "integer", jsonPath: ".spec.v" },
    { name: "Num", type: "number", jsonPath: ".spec.v" },
    { name: "Bool", type: "boolean", jsonPath: ".spec.v" },
    { name: "Str", type: "string", jsonPath: ".spec.v" },
    { name: "Date", type: "date", jsonPath: ".spec.v" },
  ];
  const printer = customResourcePrinter(columns);
  const cells = (v: unknown) => printer.cells({ ...OBJ, spec: { v } }, NOW).slice(1);
  expect(cells(2.7)).toEqual([2, 2.7, null, "2.7", null]);
  expect(cells(true)).toEqual([null, null, true, "true", null]);
  expect(cells({ b: 1 })).toEqual([null, null, null, '{"b":1}', null]);
  expect(cells("2024-01-01T00:30:00Z")).toEqual([null, null, null, "2024-01-01T00:30:00Z", "30m"]);
  expect(cells(12345678901234567890n)).toEqual([12345678901234567890n, 12345678901234567000, null, "12345678901234567890", null]);
});

test("customResourcePrinter() date cells: <invalid> for a non-RFC 3339 text, <unknown> for an empty one", () => {
  const printer = customResourcePrinter([{ name: "At", type: "date", jsonPath: ".spec.at" }]);
  const cell = (at: string) => printer.cells({ ...OBJ, spec: { at } }, NOW)[1];
  expect(cell("2024-01-01")).toBe("<invalid>");
  expect(cell("")).toBe("<unknown>");
  expect(cell("2024-01-01T01:00:00.5+01:00")).toBe("59m");
});

test("customResourcePrinter() describes a column without a description by its JSONPath", () => {
  const [, column] = customResourcePrinter([{ name: "R", type: "integer", jsonPath: ".spec.replicas" }]).columns;
  expect(column.description).toBe("Custom resource definition column (in JSONPath format): .spec.replicas");
});
