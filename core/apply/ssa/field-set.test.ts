import { expect, test } from "bun:test";
import { difference, intersection, memberPaths, setFromPaths, union, withNamedParents } from "./field-set.ts";

const a = setFromPaths([["f:spec", "f:replicas"], ["f:spec", "f:paused"]]);
const b = setFromPaths([["f:spec", "f:replicas"], ["f:data"]]);

test("union, difference and intersection work on exact paths", () => {
  expect(memberPaths(union(a, b))).toEqual([["f:data"], ["f:spec", "f:paused"], ["f:spec", "f:replicas"]]);
  expect(memberPaths(difference(a, b))).toEqual([["f:spec", "f:paused"]]);
  expect(memberPaths(intersection(a, b))).toEqual([["f:spec", "f:replicas"]]);
});

test("difference() by a parent path keeps the children (not recursive)", () => {
  expect(memberPaths(difference(setFromPaths([["f:spec"], ["f:spec", "f:x"]]), setFromPaths([["f:spec"]])))).toEqual([["f:spec", "f:x"]]);
});

test("withNamedParents() owns fields that have owned paths below them, but not list items", () => {
  const set = setFromPaths([["f:spec", "f:containers", 'k:{"name":"c"}', "f:image"]]);
  expect(memberPaths(withNamedParents(set))).toEqual([
    ["f:spec"],
    ["f:spec", "f:containers"],
    ["f:spec", "f:containers", 'k:{"name":"c"}', "f:image"],
  ]);
});

test("subtrees only one side holds are kept or dropped whole, and the inputs are left as they were", () => {
  const deep = setFromPaths([["f:spec", "f:template", "f:metadata", "f:labels", "f:app"], ["f:spec", "f:replicas"]]);
  const other = setFromPaths([["f:spec", "f:replicas"], ["f:status", "f:ready"]]);
  expect(memberPaths(union(deep, other))).toEqual([
    ["f:spec", "f:replicas"],
    ["f:spec", "f:template", "f:metadata", "f:labels", "f:app"],
    ["f:status", "f:ready"],
  ]);
  expect(memberPaths(difference(deep, other))).toEqual([["f:spec", "f:template", "f:metadata", "f:labels", "f:app"]]);
  expect(memberPaths(difference(other, deep))).toEqual([["f:status", "f:ready"]]);
  expect(memberPaths(intersection(deep, other))).toEqual([["f:spec", "f:replicas"]]);
  expect(memberPaths(deep)).toHaveLength(2);
  expect(memberPaths(other)).toHaveLength(2);
});
