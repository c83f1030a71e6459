import { expect, test } from "bun:test";
import { goPrintValue, goSprintS, goTypeName } from "./go-values.ts";

test("goPrintValue() prints a decoded patch as Go's %+v: sorted map keys, space-separated slices, bare strings, %v floats", () => {
  expect(goPrintValue({ spec: { replicas: "x", b: [1, "two", true, null] }, a: 1.5 })).toBe(
    "map[a:1.5 spec:map[b:[1 two true <nil>] replicas:x]]",
  );
  expect([goPrintValue(1234567.5), goPrintValue(0.00001), goPrintValue(123456.5)]).toEqual(["1.2345675e+06", "1e-05", "123456.5"]);
});

test("goTypeName() names a decoded value's Go type as reflect.TypeOf prints it (mergepatch.ErrBadArgType)", () => {
  expect([{}, [], "s", 1, 1.5, true, null].map(goTypeName)).toEqual([
    "map[string]interface {}",
    "[]interface {}",
    "string",
    "int64",
    "float64",
    "bool",
    "%!s(<nil>)",
  ]);
});

test("goSprintS() prints a decoded value as Go's %s: strings bare, other scalars as fmt's %!s(type=value)", () => {
  expect([goSprintS("replace"), goSprintS(1), goSprintS(true), goSprintS(null), goSprintS({ a: ["b", 2] })]).toEqual([
    "replace",
    "%!s(int64=1)",
    "%!s(bool=true)",
    "%!s(<nil>)",
    "map[a:[b %!s(int64=2)]]",
  ]);
});
