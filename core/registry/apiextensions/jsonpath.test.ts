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

test("filters keep the list items whose field compares true, as client-go jsonpath's [?(...)] (Gateway API's printer columns)", () => {
  const conditions = { status: { conditions: [{ type: "Accepted", status: "True" }, { type: "Programmed", status: "False" }] } };
  expect(evaluateJSONPath(parseJSONPath('.status.conditions[?(@.type=="Programmed")].status'), conditions)).toEqual(["False"]);
  expect(evaluateJSONPath(parseJSONPath(".spec.ports[?(@.port>100)].port"), OBJ)).toEqual([443]);
  expect(evaluateJSONPath(parseJSONPath(".spec.ports[?(@.port)].port"), OBJ)).toEqual([80, 443]);
  expect(evaluateJSONPath(parseJSONPath(".spec.ports[?(@.port!='x')].port"), OBJ)).toEqual([80, 443]);
});

test("parseJSONPath() refuses what it cannot read", () => {
  expect(() => parseJSONPath(".spec.ports[?(len(@.port) > 1)]")).toThrow("unsupported JSONPath");
  expect(() => parseJSONPath(".spec[")).toThrow("unsupported JSONPath");
});
