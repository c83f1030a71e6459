import { expect, test } from "bun:test";
import { mergePatch } from "./merge-patch.ts";

// The examples of RFC 7386 appendix A.
test.each([
  [{ a: "b" }, { a: "c" }, { a: "c" }],
  [{ a: "b" }, { b: "c" }, { a: "b", b: "c" }],
  [{ a: "b" }, { a: null }, {}],
  [{ a: "b", b: "c" }, { a: null }, { b: "c" }],
  [{ a: ["b"] }, { a: "c" }, { a: "c" }],
  [{ a: "c" }, { a: ["b"] }, { a: ["b"] }],
  [{ a: { b: "c" } }, { a: { b: "d", c: null } }, { a: { b: "d" } }],
  [{ a: [{ b: "c" }] }, { a: [1] }, { a: [1] }],
  [["a", "b"], ["c", "d"], ["c", "d"]],
  [{ a: "b" }, ["c"], ["c"]],
  [{ a: "foo" }, null, null],
  [{ a: "foo" }, "bar", "bar"],
  [{ e: null }, { a: 1 }, { e: null, a: 1 }],
  [[1, 2], { a: "b", c: null }, { a: "b" }],
  [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
])("mergePatch(%j, %j) = %j", (target, patch, expected) => {
  expect(mergePatch(target, patch)).toEqual(expected);
});

test("mergePatch leaves its target unchanged", () => {
  const target = { a: { b: 1 } };
  mergePatch(target, { a: { b: 2 } });
  expect(target).toEqual({ a: { b: 1 } });
});

test("a '__proto__' member of a patch is an ordinary key of the result (kube's map merge), never the result's prototype", () => {
  const patched = mergePatch({ metadata: { name: "a" } }, JSON.parse('{"metadata":{"__proto__":{"labels":{"q":"1"}}}}')) as {
    metadata: Record<string, unknown>;
  };
  expect(patched.metadata.labels).toBeUndefined();
  expect(Object.getPrototypeOf(patched.metadata)).toBe(Object.prototype);
  expect(JSON.stringify(patched)).toBe('{"metadata":{"name":"a","__proto__":{"labels":{"q":"1"}}}}');
});
