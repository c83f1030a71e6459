import { expect, test } from "bun:test";
import type { Operation, Parameter } from "./openapi-model.ts";
import { splitParameters } from "./openapi-model.ts";

const query = (name: string): Parameter => ({ name, in: "query", type: "string" });
const operation = (parameters: Parameter[]): Operation => ({ method: "get", operationId: "x", tag: "t", parameters, responses: [] });

test("splitParameters() moves parameters every operation shares to the path, each list sorted by name then location", () => {
  const namespace: Parameter = { name: "namespace", in: "path", type: "string" };
  const { shared, own } = splitParameters([
    operation([namespace, query("pretty"), query("watch"), query("continue")]),
    operation([query("pretty"), namespace, query("dryRun")]),
  ]);
  expect(shared.map((parameter) => parameter.name)).toEqual(["namespace", "pretty"]);
  expect(own.map((list) => list.map((parameter) => parameter.name))).toEqual([["continue", "watch"], ["dryRun"]]);
});

test("splitParameters() puts all parameters of a single operation on the path, path before query for one name", () => {
  const { shared, own } = splitParameters([operation([query("path"), { name: "path", in: "path", type: "string" }])]);
  expect(shared.map((parameter) => parameter.in)).toEqual(["path", "query"]);
  expect(own).toEqual([[]]);
});
