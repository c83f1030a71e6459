import { expect, test } from "bun:test";
import { goJsonLine } from "./go-json.ts";

test("strings are escaped as Go 1.19's encoding/json encodeState.string with HTML escaping writes them", () => {
  const value = { s: "<a href='x'>&</a>\u2028\u2029\b\f\u0001\n\r\t\"\\b\ud800é" };
  expect(goJsonLine(value, { sortKeys: false })).toBe(
    '{"s":"\\u003ca href=\'x\'\\u003e\\u0026\\u003c/a\\u003e\\u2028\\u2029\\u0008\\u000c\\u0001\\n\\r\\t\\"\\\\b\\ufffdé"}\n',
  );
});

test("an unstructured object's keys are written in Go's map order, by UTF-8 bytes, integer-like keys included", () => {
  const value = { b: 1, a: { z: [{ y: 1, x: 2 }], "10": true, "9": false }, "\u{1f600}": 0, "\uff01": 0 };
  expect(goJsonLine(value, { sortKeys: true })).toBe('{"a":{"10":true,"9":false,"z":[{"x":2,"y":1}]},"b":1,"！":0,"😀":0}\n');
});

test("integers beyond 2^53 stay exact", () => {
  expect(goJsonLine({ n: 9007199254740993n }, { sortKeys: true })).toBe('{"n":9007199254740993}\n');
  expect(goJsonLine({ n: 9007199254740993n }, { sortKeys: false })).toBe('{"n":9007199254740993}\n');
});
