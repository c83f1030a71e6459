import { expect, test } from "bun:test";
import { cloneJSONValue } from "./json-clone.ts";

test("cloneJSONValue() copies objects and arrays, shares immutable leaves, and keeps key order, BigInt and __proto__ keys", () => {
  const original = JSON.parse('{"b":[1,{"c":null}],"a":"x","__proto__":{"p":true},"n":-0.5}');
  original.big = 2n ** 63n - 1n;
  const copy = cloneJSONValue(original);
  expect(copy).toEqual(original);
  expect(Object.keys(copy)).toEqual(Object.keys(original));
  expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
  copy.b[1].c = 1;
  expect(original.b[1].c).toBeNull();
});

test("cloneJSONValue() copies a value nested 10,000 deep, kube's decoding limit", () => {
  const deep = JSON.parse(`${"[".repeat(10_000)}1${"]".repeat(10_000)}`);
  expect(JSON.stringify(cloneJSONValue(deep))).toBe(JSON.stringify(deep));
});
