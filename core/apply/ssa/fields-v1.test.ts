import { expect, test } from "bun:test";
import { emptySet, insertPath, memberPaths } from "./field-set.ts";
import { fromFieldsV1, toFieldsV1 } from "./fields-v1.ts";

test("toFieldsV1() marks a node that is owned and has children with '.' and sorts fields before keys before values", () => {
  const set = emptySet();
  insertPath(set, ["f:spec", "f:list", 'k:{"name":"b"}']);
  insertPath(set, ["f:spec", "f:list", 'k:{"name":"b"}', "f:x"]);
  insertPath(set, ["f:spec", "f:list", 'k:{"name":"a"}']);
  insertPath(set, ["f:metadata", "f:finalizers", 'v:"z"']);
  insertPath(set, ["f:metadata", "f:finalizers"]);
  insertPath(set, ["f:spec", "f:a"]);
  expect(JSON.stringify(toFieldsV1(set))).toBe(
    '{"f:metadata":{"f:finalizers":{".":{},"v:\\"z\\"":{}}},"f:spec":{"f:a":{},"f:list":{"k:{\\"name\\":\\"a\\"}":{},"k:{\\"name\\":\\"b\\"}":{".":{},"f:x":{}}}}}',
  );
});

test("keys with numbers order numerically, not by their text", () => {
  const set = emptySet();
  insertPath(set, ["f:ports", 'k:{"port":10}']);
  insertPath(set, ["f:ports", 'k:{"port":9}']);
  expect(Object.keys(toFieldsV1(set)["f:ports"] as object)).toEqual(['k:{"port":9}', 'k:{"port":10}']);
});

test("fromFieldsV1() reads leaves and '.' as owned paths and round-trips", () => {
  const json = { "f:data": { ".": {}, "f:key": {} }, "f:metadata": { "f:labels": { "f:app": {} } } };
  const set = fromFieldsV1(json);
  expect(memberPaths(set)).toEqual([["f:data"], ["f:data", "f:key"], ["f:metadata", "f:labels", "f:app"]]);
  expect(toFieldsV1(set)).toEqual(json);
});

test("fromFieldsV1() rejects unknown element kinds", () => {
  expect(() => fromFieldsV1({ "x:bad": {} })).toThrow("unknown path element kind");
});
