import { expect, test } from "bun:test";
import { isPrettyPrint, parseGoBool, queryBool, queryInt64, queryOptionalBool } from "./query-params.ts";
import { statusErrorOf } from "./testing.ts";

const q = (text: string) => new URLSearchParams(text);

test("queryBool() decodes as Convert_Slice_string_To_bool: only 0 and false in any case are false", () => {
  const cases: [string, boolean][] = [
    ["", false],
    ["x", true],
    ["x=", true],
    ["x=1", true],
    ["x=true", true],
    ["x=True", true],
    ["x=TRUE", true],
    ["x=t", true],
    ["x=yes", true],
    ["x=no", true],
    ["x=2", true],
    ["x=0", false],
    ["x=false", false],
    ["x=False", false],
    ["x=FALSE", false],
    ["x=fAlSe", false],
    ["x=0&x=1", false],
    ["x=1&x=0", true],
  ];
  for (const [query, expected] of cases) expect([query, queryBool(q(query), "x")]).toEqual([query, expected]);
});

test("queryOptionalBool() keeps absence apart, as Convert_Slice_string_To_Pointer_bool's unset pointer", () => {
  expect(queryOptionalBool(q(""), "x")).toBeUndefined();
  expect(queryOptionalBool(q("x=True"), "x")).toBe(true);
  expect(queryOptionalBool(q("x=false"), "x")).toBe(false);
});

test("queryInt64() parses as Convert_Slice_string_To_int64 and answers 400 with strconv.ParseInt's message", () => {
  expect(queryInt64(q(""), "n")).toBeUndefined();
  expect(queryInt64(q("n=30"), "n")).toBe(30);
  expect(queryInt64(q("n=%2B7"), "n")).toBe(7);
  expect(queryInt64(q("n=-9223372036854775808"), "n")).toBe(-9223372036854775808);
  const cases: [string, string][] = [
    ["n=", 'strconv.ParseInt: parsing "": invalid syntax'],
    ["n=abc", 'strconv.ParseInt: parsing "abc": invalid syntax'],
    ["n=1.5", 'strconv.ParseInt: parsing "1.5": invalid syntax'],
    ["n=%201", 'strconv.ParseInt: parsing " 1": invalid syntax'],
    ["n=9223372036854775808", 'strconv.ParseInt: parsing "9223372036854775808": value out of range'],
  ];
  for (const [query, message] of cases) {
    const error = statusErrorOf(() => queryInt64(q(query), "n"));
    expect([query, error.code, error.reason, error.message]).toEqual([query, 400, "BadRequest", message]);
  }
});

test("parseGoBool() accepts exactly strconv.ParseBool's spellings", () => {
  for (const word of ["1", "t", "T", "true", "TRUE", "True"]) expect(parseGoBool(word)).toBe(true);
  for (const word of ["0", "f", "F", "false", "FALSE", "False"]) expect(parseGoBool(word)).toBe(false);
  for (const word of ["", "yes", "tRUE", "toString", "constructor"]) expect(parseGoBool(word)).toBeUndefined();
});

test("isPrettyPrint() follows kube's isPrettyPrint: ParseBool of a non-empty pretty, else curl, Wget and browsers", () => {
  expect(isPrettyPrint(q("pretty=true"), null)).toBe(true);
  expect(isPrettyPrint(q("pretty=T"), null)).toBe(true);
  expect(isPrettyPrint(q("pretty=1"), "kubectl/v1.32.0")).toBe(true);
  expect(isPrettyPrint(q("pretty=yes"), "curl/8.0")).toBe(false);
  expect(isPrettyPrint(q("pretty=false"), "curl/8.0")).toBe(false);
  expect(isPrettyPrint(q("pretty="), "curl/8.0")).toBe(true);
  expect(isPrettyPrint(q(""), "Wget/1.21")).toBe(true);
  expect(isPrettyPrint(q(""), "Mozilla/5.0 (X11)")).toBe(true);
  expect(isPrettyPrint(q(""), "Mozilla/4.0")).toBe(false);
  expect(isPrettyPrint(q(""), "OpenAPI-Generator/24.2.0/python")).toBe(false);
  expect(isPrettyPrint(q(""), null)).toBe(false);
});
