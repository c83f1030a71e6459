import { expect, test } from "bun:test";
import { applyJsonPatch, jsonEqual, JsonPatchError, type JsonPatchOperation, parsePointer } from "./json-patch.ts";

// RFC 6902 appendix A, plus json-patch v4's negative indices.
test.each<[string, unknown, JsonPatchOperation[], unknown]>([
  ["adds an object member", { foo: "bar" }, [{ op: "add", path: "/baz", value: "qux" }], { foo: "bar", baz: "qux" }],
  ["adds an array element", { foo: ["bar", "baz"] }, [{ op: "add", path: "/foo/1", value: "qux" }], { foo: ["bar", "qux", "baz"] }],
  ["removes an object member", { baz: "qux", foo: "bar" }, [{ op: "remove", path: "/baz" }], { foo: "bar" }],
  ["removes an array element", { foo: ["bar", "qux", "baz"] }, [{ op: "remove", path: "/foo/1" }], { foo: ["bar", "baz"] }],
  ["replaces a value", { baz: "qux", foo: "bar" }, [{ op: "replace", path: "/baz", value: "boo" }], { baz: "boo", foo: "bar" }],
  [
    "moves a value",
    { foo: { bar: "baz", waldo: "fred" }, qux: { corge: "grault" } },
    [{ op: "move", from: "/foo/waldo", path: "/qux/thud" }],
    { foo: { bar: "baz" }, qux: { corge: "grault", thud: "fred" } },
  ],
  ["moves an array element", { foo: ["all", "grass", "cows", "eat"] }, [{ op: "move", from: "/foo/1", path: "/foo/3" }], {
    foo: ["all", "cows", "eat", "grass"],
  }],
  ["copies a value", { a: { b: 1 } }, [{ op: "copy", from: "/a", path: "/c" }], { a: { b: 1 }, c: { b: 1 } }],
  ["adds a nested member", { foo: "bar" }, [{ op: "add", path: "/child", value: { grandchild: {} } }], {
    foo: "bar",
    child: { grandchild: {} },
  }],
  ["appends with -", { foo: ["bar"] }, [{ op: "add", path: "/foo/-", value: ["abc", "def"] }], { foo: ["bar", ["abc", "def"]] }],
  [
    "unescapes ~1 and ~0 in pointers",
    { "a/b": 1, "m~n": 2 },
    [{ op: "replace", path: "/a~1b", value: 3 }, { op: "remove", path: "/m~0n" }],
    { "a/b": 3 },
  ],
  ["passes a test of an equal value", { baz: "qux", foo: ["a", 2, "c"] }, [{ op: "test", path: "/baz", value: "qux" }, {
    op: "test",
    path: "/foo/1",
    value: 2,
  }], {
    baz: "qux",
    foo: ["a", 2, "c"],
  }],
  ["reads negative indices from the end", { a: [1, 2, 3] }, [{ op: "remove", path: "/a/-1" }], { a: [1, 2] }],
  ["replaces the whole document at the empty pointer", { a: 1 }, [{ op: "replace", path: "", value: { b: 2 } }], { b: 2 }],
])("applyJsonPatch %s", (_name, doc, ops, expected) => {
  expect(applyJsonPatch(doc, ops)).toEqual(expected);
});

test.each<[string, unknown, JsonPatchOperation[]]>([
  ["a failed test", { baz: "qux" }, [{ op: "test", path: "/baz", value: "bar" }]],
  ["adding under a missing parent", { foo: "bar" }, [{ op: "add", path: "/baz/bat", value: "qux" }]],
  ["removing a missing member", { foo: "bar" }, [{ op: "remove", path: "/baz" }]],
  ["replacing a missing member", { foo: "bar" }, [{ op: "replace", path: "/baz", value: 1 }]],
  ["an index past the end", { foo: [1] }, [{ op: "add", path: "/foo/3", value: 1 }]],
  ["a non-numeric index", { foo: [1] }, [{ op: "replace", path: "/foo/x", value: 1 }]],
  ["an unknown op", { foo: 1 }, [{ op: "frobnicate", path: "/foo" }]],
  ["a pointer without a leading slash", { foo: 1 }, [{ op: "remove", path: "foo" }]],
  ["an add without a value", { foo: 1 }, [{ op: "add", path: "/bar" }]],
])("applyJsonPatch rejects %s", (_name, doc, ops) => {
  expect(() => applyJsonPatch(doc, ops)).toThrow(JsonPatchError);
});

test("applyJsonPatch leaves its input unchanged", () => {
  const doc = { a: { b: [1, 2] } };
  applyJsonPatch(doc, [{ op: "remove", path: "/a/b/0" }]);
  expect(doc).toEqual({ a: { b: [1, 2] } });
});

test("a test of a missing member passes only for null", () => {
  expect(applyJsonPatch({}, [{ op: "test", path: "/missing", value: null }])).toEqual({});
  expect(() => applyJsonPatch({}, [{ op: "test", path: "/missing", value: 1 }])).toThrow(JsonPatchError);
});

test("parsePointer splits and unescapes tokens", () => {
  expect(parsePointer("/a~1b/~01/0")).toEqual(["a/b", "~1", "0"]);
  expect(parsePointer("")).toEqual([]);
});

test("jsonEqual ignores member order but not array order; an undefined member is no member, as in the JSON text", () => {
  expect(jsonEqual({ a: 1, b: [1, 2] }, { b: [1, 2], a: 1 })).toBe(true);
  expect(jsonEqual([1, 2], [2, 1])).toBe(false);
  expect(jsonEqual({ a: 1 }, { a: 1, b: undefined })).toBe(true);
  expect(jsonEqual({ a: 1, b: undefined }, { a: 1 })).toBe(true);
  expect(jsonEqual({ a: 1 }, { a: 1, b: null })).toBe(false);
});

test("copies may add at most the accumulated copy limit in all (json-patch Patch.copy, AccumulatedCopySizeError)", () => {
  const doc = { a: "x".repeat(8) }; // "xxxxxxxx" is 10 bytes of JSON
  const copies = (n: number) => Array.from({ length: n }, (_, i) => ({ op: "copy", from: "/a", path: `/c${i}` }));
  expect(Object.keys(applyJsonPatch(doc, copies(3), 30) as object)).toHaveLength(4);
  expect(() => applyJsonPatch(doc, copies(4), 30)).toThrow(
    "Unable to complete the copy, the accumulated size increase of copy is 40, exceeding the limit 30",
  );
});

test("doubling copies are stopped at the limit before they are made", () => {
  const doubling = Array.from({ length: 40 }, () => ({ op: "copy", from: "/a", path: "/a/-" }));
  const doc = { a: ["x".repeat(100)] };
  expect(() => applyJsonPatch(doc, doubling)).toThrow(/exceeding the limit 3145728$/);
});

test("add and replace at a '__proto__' member set an ordinary key (json-patch's map assignment), never the prototype", () => {
  const doc = JSON.parse('{"metadata":{"name":"a"}}');
  const added = applyJsonPatch(doc, [{ op: "add", path: "/metadata/__proto__", value: { labels: { q: "1" } } }]) as {
    metadata: Record<string, unknown>;
  };
  expect(added.metadata.labels).toBeUndefined();
  expect(JSON.stringify(added)).toBe('{"metadata":{"name":"a","__proto__":{"labels":{"q":"1"}}}}');
  const replaced = applyJsonPatch(added, [{ op: "replace", path: "/metadata/__proto__", value: { finalizers: ["a/b"] } }]) as {
    metadata: Record<string, unknown>;
  };
  expect(replaced.metadata.finalizers).toBeUndefined();
  expect(JSON.stringify(replaced)).toBe('{"metadata":{"name":"a","__proto__":{"finalizers":["a/b"]}}}');
});
