import { expect, test } from "bun:test";
import { parse } from "@bufbuild/cel";
import { checkRule } from "./check.ts";
import { compileRule } from "./compile.ts";
import { fixed, type Range } from "./cost-estimate.ts";
import { estimateCost } from "./cost.ts";
import { schemaSizeLookup } from "./cost-sizes.ts";
import type { RuleSchema } from "./schema.ts";

/** The estimated max cost of `rule` on `schema`, as kube's Compile reports it (CompilationResult.MaxCost). */
function maxCost(schema: RuleSchema, rule: string): bigint {
  const compiled = compileRule({ rule }, schema, false);
  expect(compiled.error).toBeUndefined();
  return estimateCost(compiled.parsed!.expr, compiled.types!, schemaSizeLookup(schema, false)).max;
}

type Generator = (max?: number) => RuleSchema;

function scalar(type: string): RuleSchema {
  if (type === "int-or-string") return { "x-kubernetes-int-or-string": true };
  if (["duration", "date", "date-time", "byte"].includes(type)) return { type: "string", format: type };
  return { type };
}

const requiredObject: RuleSchema = {
  type: "object",
  required: ["required"],
  properties: { required: { type: "string" }, optional: { type: "string" } },
};
const array = (items: RuleSchema) => (max?: number): RuleSchema => ({ type: "array", items, maxItems: max });
const map = (values: RuleSchema) => (max?: number): RuleSchema => ({ type: "object", additionalProperties: values, maxProperties: max });
const string: Generator = (max) => ({ type: "string", maxLength: max });
const bytes: Generator = (max) => ({ type: "string", format: "byte", maxLength: max });
const boundedStrings: Generator = (max) => ({ type: "array", items: { type: "string", maxLength: max }, maxItems: max });

/**
 * genAllMaxNestedSpecWithRootRule / genOneMaxNestedSpecWithRootRule: a list of maps of objects, bounded at every level
 * or only at the middle map.
 */
const nestedMaps = (everyLevel: boolean): Generator => (max) => ({
  type: "array",
  maxItems: everyLevel ? max : undefined,
  items: {
    type: "object",
    maxProperties: max,
    additionalProperties: { ...requiredObject, maxProperties: everyLevel ? max : undefined },
  },
});

// [name, schema, rule, cost without bounds, bound, cost with bounds]: kube 1.26's
// apiextensions-apiserver pkg/apiserver/schema/cel compilation_test.go TestCostEstimation.
const CASES: [string, Generator, string, number | "over", number, number][] = [
  ["number array with all", array(scalar("number")), "self.all(x, true)", 4718591, 10, 32],
  ["string array with all", array(scalar("string")), "self.all(x, true)", 3145727, 20, 62],
  ["boolean array with all", array(scalar("boolean")), "self.all(x, true)", 1887437, 5, 17],
  ["array of number arrays with all", array({ type: "array", items: scalar("number") }), "self.all(x, true)", 3145727, 100, 302],
  ["array of objects with all", array(requiredObject), "self.all(x, true)", 555128, 50, 152],
  ["map of numbers with all", map(scalar("number")), "self.all(x, true)", 1348169, 10, 32],
  ["map of numbers with has", map(scalar("number")), "has(self.x)", 0, 100, 0],
  ["map of strings with all", map(scalar("string")), "self.all(x, true)", 1179647, 3, 11],
  ["map of booleans with all", map(scalar("boolean")), "self.all(x, true)", 943718, 100, 302],
  ["string with contains", string, "self.contains('test')", 314574, 10, 5],
  ["string with startsWith", string, "self.startsWith('test')", 2, 15, 2],
  ["string with endsWith", string, "self.endsWith('test')", 2, 30, 2],
  ["concat string", string, `size(self + "hello") > size("hello")`, 314578, 4, 7],
  ["index of array with numbers", array(scalar("number")), "self[1] == 0.0", 2, 5000, 2],
  ["index of array with strings", array(scalar("string")), "self[1] == self[1]", 314577, 8, 314577],
  ["O(n^2) loop with numbers", array(scalar("number")), "self.all(x, self.all(y, true))", "over", 10, 352],
  ["O(n^3) loop with numbers", array(scalar("number")), "self.all(x, self.all(y, self.all(z, true)))", "over", 10, 3552],
  ["regex matches simple", string, `self.matches("x")`, 314574, 50, 22],
  ["regex matches empty string", string, `"".matches("(((((((((())))))))))[0-9]")`, 7, 10, 7],
  ["regex matches empty regex", string, `self.matches("")`, 1, 100, 1],
  ["map of strings with value length", map(scalar("string")), "self.all(x, x.contains(self[x]))", 2752507, 10, 72],
  ["set array maxLength to zero", array(scalar("number")), "self[3] == 0.0", 2, 0, 2],
  ["set map maxLength to zero", map(scalar("number")), `self["x"] == 0.0`, 2, 0, 2],
  ["set string maxLength to zero", string, `self == "x"`, 2, 0, 1],
  ["set bytes maxLength to zero", bytes, `self == b"x"`, 2, 0, 1],
  ["set maxLength greater than estimated maxLength", array(scalar("number")), "self.all(x, x == 0.0)", 6291454, 3 * 1024 * 2048, 25165826],
  ["int-or-string array with all", array(scalar("int-or-string")), "self.all(x, true)", 4718591, 10, 32],
  ["index of array with int-or-strings", array(scalar("int-or-string")), "self[0] == 5", 3, 10, 3],
  ["index of array with booleans", array(scalar("boolean")), "self[0] == false", 2, 25, 2],
  ["index of array of objects", array(requiredObject), "self[0] == null", 2, 422, 2],
  ["index of array of array of numbers", array({ type: "array", items: scalar("number") }), "self[0][0] == -1.0", 3, 51, 3],
  [
    "array of number maps with all",
    array({ type: "object", additionalProperties: scalar("number") }),
    "self.all(x, x.y == 25.2)",
    6291452,
    12,
    74,
  ],
  ["index of array of number maps", array({ type: "object", additionalProperties: scalar("number") }), "self[0].x > 2.0", 4, 3000, 4],
  ["duration array with all", array(scalar("duration")), "self.all(x, true)", 2359295, 5, 17],
  ["index of duration array", array(scalar("duration")), "self[0].getHours() == 2", 4, 525, 4],
  ["date array with all", array(scalar("date")), "self.all(x, true)", 725936, 15, 47],
  ["index of date array", array(scalar("date")), "self[2].getDayOfMonth() == 13", 4, 42, 4],
  ["date-time array with all", array(scalar("date-time")), "self.all(x, true)", 428963, 25, 77],
  ["index of date-time array", array(scalar("date-time")), "self[2].getMinutes() == 45", 4, 99, 4],
  ["map of int-or-strings with all", map(scalar("int-or-string")), "self.all(x, true)", 1348169, 15, 47],
  ["map of objects with all", map(requiredObject), "self.all(x, true)", 428963, 20, 62],
  ["map of number maps with all", map({ type: "object", additionalProperties: scalar("number") }), "self.all(x, true)", 1179647, 10, 32],
  ["map of number arrays with all", map({ type: "array", items: scalar("number") }), "self.all(x, true)", 1179647, 25, 77],
  ["map of durations with all", map(scalar("duration")), "self.all(x, true)", 1048577, 5, 17],
  ["map of dates with all", map(scalar("date")), "self.all(x, true)", 524288, 10, 32],
  ["map of date-times with all", map(scalar("date-time")), "self.all(x, true)", 349526, 25, 77],
  ["map of date-times with has", map(scalar("date-time")), "has(self.x)", 0, 490, 0],
  ["extended library regex find", string, "self.find('[0-9]+') == ''", 629147, 10, 11],
  ["extended library join", boundedStrings, "self.join(' ') == 'aa bb'", 329853068905, 10, 43],
  ["extended library isSorted", boundedStrings, "self.isSorted() == true", 329854432052, 10, 52],
  ["extended library lowerAscii", string, "self.lowerAscii() == 'lower!'", 314575, 10, 6],
  ["map of strings with has", map(scalar("string")), "has(self.x)", 0, 550, 0],
  ["map of booleans with has", map(scalar("boolean")), "has(self.x)", 0, 1024, 0],
  ["map of int-or-strings with has", map(scalar("int-or-string")), "has(self.x)", 0, 5000, 0],
  ["map of objects with has", map(requiredObject), "has(self.x)", 0, 9001, 0],
  ["map of number maps with has", map({ type: "object", additionalProperties: scalar("number") }), "has(self.x)", 0, 101, 0],
  ["map of number arrays with has", map({ type: "array", items: scalar("number") }), "has(self.x)", 0, 40000, 0],
  ["map of durations with has", map(scalar("duration")), "has(self.x)", 0, 256, 0],
  ["map of dates with has", map(scalar("date")), "has(self.x)", 0, 65536, 0],
  ["nested types with root rule with all supporting maxLength", nestedMaps(true), 'self.all(x, x["y"].required == "z")', 7340027, 10, 72],
  [
    "nested types with root rule with one supporting maxLength",
    nestedMaps(false),
    'self.all(x, x["y"].required == "z")',
    7340027,
    10,
    7340027,
  ],
  ["check cost of size call", map(scalar("integer")), "oldSelf.size() == self.size()", 5, 10, 5],
  ["check cost of timestamp comparison", map(scalar("date-time")), `self["a"] == self["b"]`, 8, 7, 8],
  ["check cost of duration comparison", map(scalar("duration")), `self["c"] == self["d"]`, 8, 42, 8],
];

for (const [name, generate, rule, unbounded, bound, bounded] of CASES) {
  test(`checker.Cost with kube's estimator matches TestCostEstimation: ${name}`, () => {
    const calculated = maxCost(generate(), rule);
    if (unbounded === "over") expect(calculated).toBeGreaterThan(1_000_000n);
    else expect(calculated).toBe(BigInt(unbounded));
    expect(maxCost(generate(bound), rule)).toBe(BigInt(bounded));
  });
}

test("replace() and split() cost twice a traversal and size their results (TestCostEstimation: extended library replace, split)", () => {
  const withStrings = (fields: Record<string, number | undefined>): RuleSchema => ({
    type: "object",
    properties: Object.fromEntries(Object.entries(fields).map(([name, maxLength]) => [name, { type: "string", maxLength }])),
  });
  const replace = "self.str.replace(self.before, self.after) == 'does not matter'";
  expect(maxCost(withStrings({ str: undefined, before: 2, after: 4 }), replace)).toBe(629154n);
  expect(maxCost(withStrings({ str: 4, before: 2, after: 4 }), replace)).toBe(12n);
  const split = "self.str.split(self.separator) == []";
  expect(maxCost(withStrings({ str: undefined, separator: undefined }), split)).toBe(629160n);
  expect(maxCost(withStrings({ str: 10, separator: 10 }), split)).toBe(22n);
});

/** The estimated cost of an expression over literals only, checked as a rule would be. */
function literalCost(source: string): Range {
  const parsed = parse(source);
  const { issues, types } = checkRule(parsed, source, { kind: "dyn" });
  expect(issues).toEqual([]);
  return estimateCost(parsed.expr, types, schemaSizeLookup({ type: "object" }, false));
}

const LISTS: [string, number][] = [
  ["[1, 2, 3, 4, 5]", 15],
  ["[uint(1), uint(2), uint(3), uint(4), uint(5)]", 20],
  ["[1.0, 2.0, 3.0, 4.0, 5.0]", 15],
  ["[duration('1s'), duration('2s'), duration('3s'), duration('4s'), duration('5s')]", 20],
];

test("sum, isSorted, max and min cost one per element of a list of numbers (library TestListsCost)", () => {
  for (const [list, cost] of LISTS) {
    for (const method of [".sum()", ".isSorted()", ".max()", ".min()"]) expect(literalCost(list + method)).toEqual(fixed(cost));
  }
  expect(literalCost("[false, true, false, true, false].isSorted()")).toEqual(fixed(15));
});

test("indexOf and lastIndexOf cost one per list element, a string traversal on strings (library TestIndexOfCost)", () => {
  for (const method of ["indexOf", "lastIndexOf"]) {
    expect(literalCost(`[1, 2, 3, 4, 5].${method}(3)`)).toEqual(fixed(15));
    expect(literalCost(`[1.0, 2.0, 3.0, 4.0, 5.0].${method}(3.0)`)).toEqual(fixed(15));
    expect(literalCost(`'01234567890123456789012345678901234567890123456789'.${method}('123')`)).toEqual(fixed(5));
  }
});

test("url() costs a traversal of its argument, its getters one (library TestURLsCost)", () => {
  for (const getter of [".getScheme()", ".getHostname()", ".getHost()", ".getPort()", ".getEscapedPath()", ".getQuery()"]) {
    expect(literalCost(`url('https:://kubernetes.io/')${getter}`)).toEqual(fixed(4));
  }
});
