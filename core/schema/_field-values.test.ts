import { expect, test } from "bun:test";
import type { FieldNode } from "./_field-nodes.ts";
import { QUANTITY_FORMAT_ERROR } from "./_field-quantity.ts";
import { RFC3339 } from "./_field-time.ts";
import { scalarProblem, type ValueProblem, zeroValue } from "./_field-values.ts";

const INT32: FieldNode = { kind: "scalar", goType: "int32" };
const STRING: FieldNode = { kind: "scalar", goType: "string" };

test("scalarProblem() describes a mismatch the way Go's UnmarshalTypeError does", () => {
  const cases: [unknown, FieldNode, ValueProblem | undefined][] = [
    [1, INT32, undefined],
    ["1", INT32, { jsonValue: "string", goType: "int32" }],
    [1.5, INT32, { jsonValue: "number 1.5", goType: "int32" }],
    [-(2 ** 31), INT32, undefined],
    [2 ** 31, INT32, { jsonValue: "number 2147483648", goType: "int32" }],
    [2 ** 40, { kind: "scalar", goType: "int64" }, undefined],
    [true, STRING, { jsonValue: "bool", goType: "string" }],
    [[], STRING, { jsonValue: "array", goType: "string" }],
    [{}, { kind: "scalar", goType: "float64" }, { jsonValue: "object", goType: "float64" }],
    ["8080", { kind: "intOrString" }, undefined],
    [{}, { kind: "intOrString" }, { jsonValue: "object", goType: "int32" }],
    [7, { kind: "time", layout: RFC3339 }, { jsonValue: "number", goType: "string" }],
    [7, { kind: "bytes", goType: "[]uint8" }, { jsonValue: "number", goType: "[]uint8" }],
    [true, { kind: "quantity" }, { message: QUANTITY_FORMAT_ERROR }],
    [" 1Gi ", { kind: "quantity" }, undefined],
    [{ any: "thing" }, { kind: "raw" }, undefined],
  ];
  for (const [value, node, problem] of cases) {
    expect({ value, node, problem: scalarProblem(value, node) }).toEqual({ value, node, problem });
  }
});

test("zeroValue() is what Go stores for a JSON null inside a list or map", () => {
  expect(zeroValue(STRING)).toBe("");
  expect(zeroValue(INT32)).toBe(0);
  expect(zeroValue({ kind: "scalar", goType: "bool" })).toBe(false);
  expect(zeroValue({ kind: "struct", name: "X", goType: "v1.X", keepsUnknown: false, properties: {} })).toEqual({});
  expect(zeroValue({ kind: "bytes", goType: "[]uint8" })).toBeNull();
});
