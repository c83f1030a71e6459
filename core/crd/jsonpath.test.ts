import { expect, test } from "bun:test";
import { evaluateJSONPath, parseJSONPath } from "./jsonpath.ts";

const OBJ = { spec: { ports: [{ port: 80 }, { port: 443 }], "a.b": "dotted" }, metadata: { name: "x" } };

test("evaluateJSONPath() follows fields, indexes, wildcards and quoted keys", () => {
  expect(evaluateJSONPath(parseJSONPath(".metadata.name"), OBJ)).toEqual(["x"]);
  expect(evaluateJSONPath(parseJSONPath(".spec.ports[1].port"), OBJ)).toEqual([443]);
  expect(evaluateJSONPath(parseJSONPath("{.spec.ports[*].port}"), OBJ)).toEqual([80, 443]);
  expect(evaluateJSONPath(parseJSONPath(".spec['a.b']"), OBJ)).toEqual(["dotted"]);
  expect(evaluateJSONPath(parseJSONPath(".spec.missing"), OBJ)).toEqual([]);
});

test("parseJSONPath() refuses filters and functions outside the subset", () => {
  expect(() => parseJSONPath(".spec.ports[?(@.port==80)]")).toThrow("unsupported JSONPath");
});
