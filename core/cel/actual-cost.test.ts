import { expect, test } from "bun:test";
import { isCelError, parse } from "@bufbuild/cel";
import { evaluateWithCost } from "./actual-cost.ts";
import { checkRule } from "./check.ts";
import { compileRule } from "./compile.ts";
import { planRule } from "./env.ts";
import type { RuleSchema } from "./schema.ts";
import { toCelValue } from "./values.ts";
import { PER_CALL_LIMIT } from "./validator.ts";

const integer: RuleSchema = { type: "integer" };
const number: RuleSchema = { type: "number" };
const string: RuleSchema = { type: "string" };
const boolean: RuleSchema = { type: "boolean" };
const format = (name: string): RuleSchema => ({ type: "string", format: name });
const list = (items: RuleSchema): RuleSchema => ({ type: "array", items });
const listMap = (keys: string[], items: RuleSchema): RuleSchema => ({
  type: "array",
  items,
  "x-kubernetes-list-type": "map",
  "x-kubernetes-list-map-keys": keys,
});
const map = (values: RuleSchema): RuleSchema => ({ type: "object", additionalProperties: values });
const object = (properties: Record<string, RuleSchema>): RuleSchema => ({ type: "object", properties });
const intOrString: RuleSchema = { "x-kubernetes-int-or-string": true };
/** val1, val2, ... of the given schemas, as TestCelCostStability's schemas() and objs() build them. */
const vals = (...schemas: RuleSchema[]) => object(Object.fromEntries(schemas.map((s, i) => [`val${i + 1}`, s])));
const values = (...items: unknown[]) => Object.fromEntries(items.map((item, i) => [`val${i + 1}`, item]));

/** TestCelCostStability's ValsEqualThemselvesAndDataLiteral: both values equal the literal and each other. */
const equalToLiteral = (literal: string) => `self.val1 == ${literal} && ${literal} == self.val1 && self.val1 == self.val2`;

/** The actual cost of a rule over `obj` at the root of a resource, which must hold there and in @bufbuild/cel's own run. */
function cost(schema: RuleSchema, obj: unknown, rule: string): number {
  const compiled = compileRule({ rule }, schema, true);
  expect(compiled.error).toBeUndefined();
  const self = toCelValue(obj, schema, true);
  expect(planRule(compiled.parsed!)({ self })).toBe(true);
  const evaluated = evaluateWithCost(compiled.parsed!.expr, compiled.types!, { self }, PER_CALL_LIMIT);
  expect(evaluated.result).toBe(true);
  expect(evaluated.cancelled).toBe(false);
  return evaluated.cost;
}

// [case, schema, object, rule → actual cost]: the expected costs of kube 1.26's apiextensions-apiserver
// pkg/apiserver/schema/cel TestCelCostStability (celcoststability_test.go), for the rules kubun's library supports.
const CASES: [string, RuleSchema, unknown, Record<string, number>][] = [
  ["integers", vals(integer, integer, integer), values(7n, 7n, 2147483647n), {
    "self.val1 == self.val2": 5,
    [equalToLiteral("7")]: 11,
    "type(self.val1) == int": 4,
    "self.val3 + 1 == 2147483647 + 1": 5,
  }],
  ["numbers", vals(number, number, number), values(1.5, 1.5, 1), {
    "self.val1 == self.val2": 5,
    "type(self.val1) == double": 4,
    "type(self.val3) == double": 4,
    "self.val3 == 1.0": 3,
  }],
  ["numeric comparisons", vals(integer, number), values(5, 10.5), {
    "double(self.val1) < self.val2": 6,
    "self.val1 < int(self.val2)": 6,
    "double(5) < 10.0": 1,
    "5 < int(10.0)": 1,
    "double(self.val1) < 10.0": 4,
  }],
  ["unicode strings", vals(string, string), values("Rook takes 👑", "Rook takes 👑"), {
    [equalToLiteral("'Rook takes 👑'")]: 14,
    "self.val1.startsWith('Rook')": 4,
    "!self.val1.startsWith('knight')": 5,
    "self.val1.matches('^[^0-9]*$')": 8,
    "!self.val1.matches('^[0-9]*$')": 7,
    "type(self.val1) == string": 4,
    "size(self.val1) == 12": 4,
    "self.val1.charAt(3) == 'k'": 4,
    "self.val1.indexOf('o') == 1": 4,
    "self.val1.indexOf('o', 2) == 2": 4,
    "self.val1.replace(' ', 'x') == 'Rookxtakesx👑'": 7,
    "self.val1.replace(' ', 'x', 1) == 'Rookxtakes 👑'": 7,
    "self.val1.split(' ') == ['Rook', 'takes', '👑']": 6,
    "self.val1.split(' ', 2) == ['Rook', 'takes 👑']": 6,
    "self.val1.substring(5) == 'takes 👑'": 5,
    "self.val1.substring(0, 4) == 'Rook'": 5,
    "self.val1.substring(4, 10).trim() == 'takes'": 6,
    "self.val1.upperAscii() == 'ROOK TAKES 👑'": 6,
    "self.val1.lowerAscii() == 'rook takes 👑'": 6,
  }],
  ["escaped strings", vals(string, string), values("l1\nl2", "l1\nl2"), {
    [equalToLiteral("'l1\\nl2'")]: 11,
    "self.val1 == '''l1\nl2'''": 3,
  }],
  ["bytes", vals(format("byte"), format("byte")), values("QUI=", "QUI="), {
    "self.val1 == self.val2": 5,
    "self.val1 == b'AB'": 3,
    "type(self.val1) == bytes": 4,
    "size(self.val1) == 2": 4,
  }],
  ["booleans", vals(boolean, boolean, boolean), values(true, true, false), {
    [equalToLiteral("true")]: 11,
    "self.val1 != self.val3": 5,
    "type(self.val1) == bool": 4,
  }],
  ["duration format", vals(format("duration"), format("duration")), values("1h2m3s4ms", "1h2m3s4ms"), {
    [equalToLiteral("duration('1h2m3s4ms')")]: 11,
    "self.val1 == duration('1h2m') + duration('3s4ms')": 4,
    "self.val1.getHours() == 1": 4,
    "type(self.val1) == google.protobuf.Duration": 4,
  }],
  ["date format", vals(format("date"), format("date")), values("1997-07-16", "1997-07-16"), {
    [equalToLiteral("timestamp('1997-07-16T00:00:00.000Z')")]: 11,
    "self.val1.getDate() == 16": 4,
    "type(self.val1) == google.protobuf.Timestamp": 4,
  }],
  [
    "date-time format",
    vals(format("date-time"), format("date-time")),
    values(
      "2011-08-18T19:03:37.010000000+01:00",
      "2011-08-18T19:03:37.010000000+01:00",
    ),
    {
      [equalToLiteral("timestamp('2011-08-18T19:03:37.010+01:00')")]: 11,
      "self.val1 == timestamp('2011-08-18T00:00:00.000+01:00') + duration('19h3m37s10ms')": 4,
      "self.val1.getDate('01:00') == 18": 4,
      "type(self.val1) == google.protobuf.Timestamp": 4,
    },
  ],
  [
    "timestamp conversions",
    vals(string, format("date-time"), string, format("date")),
    values(
      "2011-08-18T19:03:37.01+01:00",
      "2011-08-18T19:03:37.01+01:00",
      "2011-08-18T00:00:00Z",
      "2011-08-18",
    ),
    {
      "timestamp(self.val1) == self.val2": 6,
      "timestamp(self.val3) == self.val4": 6,
    },
  ],
  ["enums", object({ enumStr: string }), { enumStr: "Pending" }, {
    "self.enumStr == 'Pending'": 3,
    "self.enumStr in ['Pending', 'Available']": 2,
  }],
  [
    "conversions",
    vals(integer, number, number, string, format("byte"), string, format("duration")),
    values(10, 10.0, 10.5, "10", "MTA=", "3723.004s", "1h2m3s4ms"),
    {
      "int(self.val2) == self.val1": 6,
      "double(self.val1) == self.val2": 6,
      "bytes(self.val4) == self.val5": 6,
      "string(self.val1) == self.val4": 6,
      "string(self.val3) == '10.5'": 4,
      "string(self.val5) == self.val4": 6,
      "duration(self.val6) == self.val7": 6,
    },
  ],
  ["lists", vals(list(integer), list(integer)), values([1, 2, 3], [1, 2, 3]), {
    [equalToLiteral("[1, 2, 3]")]: 11,
    "1 in self.val1": 5,
    "self.val2[0] in self.val1": 8,
    "!(0 in self.val1)": 6,
    "self.val1 + self.val2 == [1, 2, 3, 1, 2, 3]": 6,
    "self.val1 + [4, 5] == [1, 2, 3, 4, 5]": 4,
  }],
  ["listMaps", object({ objs: list(listMap(["k"], object({ k: string, v: string }))) }), {
    objs: [[{ k: "a", v: "1" }, { k: "b", v: "2" }], [{ k: "a", v: "1" }, { k: "b", v: "2" }], [{ k: "c", v: "3" }, { k: "a", v: "1" }], [{
      k: "c",
      v: "4",
    }]],
  }, {
    "self.objs[0] == self.objs[1]": 7,
    "self.objs[0] == [self.objs[0][0], self.objs[0][1]]": 22,
    "size(self.objs[0] + [self.objs[3][0]]) == 3": 20,
  }],
  ["maps", vals(map(string), map(string)), values({ k1: "a", k2: "b" }, { k2: "b", k1: "a" }), {
    "self.val1 == self.val2": 5,
    "'k1' in self.val1": 3,
    "!('k3' in self.val1)": 4,
    "self.val1 == {'k1': 'a', 'k2': 'b'}": 3,
  }],
  [
    "object access",
    object({ a: object({ b: integer, c: integer }), a1: object({ b1: object({ c1: integer }), d2: object({ e2: integer }) }) }),
    {
      a: { b: 1 },
      a1: { b1: { c1: 4 } },
    },
    {
      "has(self.a.b)": 2,
      "has(self.a1.b1.c1)": 3,
      "!(has(self.a1.d2) && has(self.a1.d2.e2))": 3,
      "!has(self.a1.d2)": 3,
    },
  ],
  ["map access", object({ val: map(integer) }), { val: { b: 1, d: 2 } }, {
    "!('a' in self.val)": 4,
    "'b' in self.val": 3,
    "!has(self.val.a)": 3,
    "has(self.val.b)": 2,
    "self.val.all(k, self.val[k] > 0)": 17,
    "self.val.exists_one(k, self.val[k] == 2)": 14,
    "!self.val.exists_one(k, self.val[k] > 0)": 17,
    "size(self.val) == 2": 4,
    "size(self.val.filter(k, self.val[k] > 1)) == 1": 26,
  }],
  ["listMap access", object({ listMap: listMap(["k"], object({ k: string, v: string, v2: string })) }), {
    listMap: [{ k: "a1", v: "b1" }, { k: "a2", v: "b2" }, { k: "a3", v: "b3", v2: "z" }],
  }, {
    "has(self.listMap[0].v)": 3,
    "self.listMap.all(m, m.k.startsWith('a'))": 21,
    "self.listMap.all(m, !has(m.v2) || m.v2 == 'z')": 21,
    "self.listMap.exists(m, m.k.endsWith('1'))": 13,
    "self.listMap.exists_one(m, m.k == 'a3')": 15,
    "!self.listMap.all(m, m.k.endsWith('1'))": 18,
    "!self.listMap.exists(m, m.v == 'x')": 25,
    "!self.listMap.exists_one(m, m.k.startsWith('a'))": 20,
    "size(self.listMap.filter(m, m.k == 'a1')) == 1": 27,
    "self.listMap.exists(m, m.k == 'a1' && m.v == 'b1')": 16,
    "self.listMap.map(m, m.v).exists(v, v == 'b1')": 55,
    "self.listMap.exists(m, has(m.v2) && m.v2 == 'z')": 21,
    "!self.listMap.all(m, has(m.v2) && m.v2 != 'z')": 10,
    "self.listMap.exists_one(m, has(m.v2) && m.v2 == 'z')": 12,
    "self.listMap.filter(m, has(m.v2) && m.v2 == 'z').size() == 1": 24,
    "self.listMap.map(m, has(m.v2) && m.v2 == 'z', m.v2).size() == 1": 25,
    "self.listMap.filter(m, has(m.v2) && m.v2 == 'z').map(m, m.v2).size() == 1": 39,
    "self.listMap.exists(m, m.v2 == 'z')": 24,
    "!self.listMap.all(m, m.v2 != 'z')": 22,
  }],
  ["list access", object({ array: list(integer) }), { array: [1, 1, 2, 2, 3, 3, 4, 5] }, {
    "2 in self.array": 10,
    "self.array.all(e, e > 0)": 43,
    "self.array.exists(e, e > 2)": 36,
    "self.array.exists_one(e, e > 4)": 22,
    "!self.array.all(e, e < 2)": 21,
    "!self.array.exists(e, e < 0)": 52,
    "!self.array.exists_one(e, e == 2)": 25,
    "self.array.all(e, e < 100)": 43,
    "size(self.array.filter(e, e%2 == 0)) == 3": 68,
    "self.array.map(e, e * 20).filter(e, e > 50).exists(e, e == 60)": 194,
    "size(self.array) == 8": 4,
  }],
  ["typemeta and objectmeta access not specified", object({ spec: object({ field1: string }) }), {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name: "foo", generateName: "pickItForMe", namespace: "xyz" },
    spec: { field1: "a" },
  }, {
    "self.kind == 'Pod'": 3,
    "self.metadata.name == 'foo'": 4,
    "self.metadata.generateName == 'pickItForMe'": 5,
    "self.spec.field1 == 'a'": 4,
  }],
  ["embedded object", object({ embedded: { type: "object", "x-kubernetes-embedded-resource": true } }), {
    embedded: { apiVersion: "v1", kind: "Pod", metadata: { name: "foo", generateName: "pickItForMe" } },
  }, {
    "self.embedded.kind == 'Pod'": 4,
    "self.embedded.metadata.name == 'foo'": 5,
    "self.embedded.metadata.generateName == 'pickItForMe'": 6,
  }],
  ["string in intOrString", object({ something: intOrString }), { something: "25%" }, {
    "type(self.something) == int ? self.something == 1 : self.something == '25%'": 7,
    "type(self.something) == string && self.something == '25%'": 7,
    "self.something == '25%'": 3,
    "self.something != 1": 3,
    "self.something == 1 || self.something == '25%'": 6,
    "self.something == '25%' || self.something == 1": 3,
    "self.something != ['anything']": 3,
  }],
  ["percent comparison using intOrString", object({ min: intOrString, current: integer, available: integer }), {
    min: "50%",
    current: 5,
    available: 10,
  }, {
    "type(self.min) == string && self.min.matches(r'(\\d+(\\.\\d+)?%)')": 10,
    "type(self.min) == int ? self.current <= self.min : double(self.current) / double(self.available) >= double(self.min.replace('%', '')) / 100.0":
      17,
  }],
  ["null values in container types", object({ m: map({ ...string, nullable: true } as RuleSchema) }), { m: { a: null, b: "not-nil" } }, {
    "self.m.size() == 2": 4,
    "type(self.m['a']) == null_type": 5,
  }],
  ["object types are not accessible", object({ nestedInMap: map(object({ inMapField: integer })) }), {
    nestedInMap: { k1: { inMapField: 1 }, k2: { inMapField: 2 } },
  }, {
    "type(self) == type(self)": 5,
    "type(self.nestedInMap['k1']) == type(self.nestedInMap['k2'])": 9,
  }],
  [
    "container type composition",
    object({
      mapOfMap: map(map(string)),
      mapOfObj: map(object({ field2: string })),
      mapOfListMap: map(listMap(["k"], object({ k: string, v: string }))),
      listOfListMap: list(listMap(["k3"], object({ k3: string, v3: string }))),
    }),
    {
      mapOfMap: { x: { y: "b" } },
      mapOfObj: { k: { field2: "c" } },
      mapOfListMap: { o: [{ k: "1", v: "d" }] },
      listOfListMap: [[{ k3: "3", v3: "i" }]],
    },
    {
      "self.mapOfMap['x']['y'] == 'b'": 5,
      "self.mapOfObj['k'].field2 == 'c'": 5,
      "self.mapOfListMap['o'].exists(e, e.k == '1' && e.v == 'd')": 14,
      "self.listOfListMap[0].exists(e, e.k3 == '3' && e.v3 == 'i')": 14,
    },
  ],
];

for (const [name, schema, obj, rules] of CASES) {
  test(`cel-go's CostObserver with kube's CostEstimator.CallCost matches TestCelCostStability: ${name}`, () => {
    const costs = Object.fromEntries(Object.keys(rules).map((rule) => [rule, cost(schema, obj, rule)]));
    expect(costs).toEqual(rules);
  });
}

test("evaluation stops once the cost passes the limit, with the cost at that point (CostTracker.Limit)", () => {
  const schema = object({ items: list(integer) });
  const compiled = compileRule({ rule: "self.items.all(x, x > 0)" }, schema, true);
  const self = toCelValue({ items: Array.from({ length: 100 }, (_, i) => i + 1) }, schema, true);
  const run = (limit: number) => evaluateWithCost(compiled.parsed!.expr, compiled.types!, { self }, limit);
  // 2 for self.items, 5 per item and 1 for the result.
  expect(run(1000)).toEqual({ result: true, cost: 503, cancelled: false });
  expect(run(100)).toEqual({ result: undefined, cost: 101, cancelled: true });
});

test("the walk evaluates as cel-go: errors in a loop do not stop it, && and || absorb errors the other side decides", () => {
  const schema = object({ items: list(object({ a: string })), n: intOrString });
  const run = (rule: string, obj: unknown) => {
    const compiled = compileRule({ rule }, schema, true);
    const self = toCelValue(obj, schema, true);
    return evaluateWithCost(compiled.parsed!.expr, compiled.types!, { self }, PER_CALL_LIMIT).result;
  };
  const items = [{}, { a: "x" }];
  expect(run("self.items.exists(i, i.a == 'x')", { items })).toBe(true);
  expect(run("self.items.all(i, i.a == 'x')", { items })).toMatchObject({ message: "field not found: a" });
  expect(run("self.n > 1 || true", { n: "s" })).toBe(true);
  expect(run("false && self.n > 1", { n: "s" })).toBe(false);
  expect(run("self.n > 1", { n: "s" })).toMatchObject({ message: expect.stringContaining("no matching overload") });
  expect(run("'x' in []", {})).toBe(false);
});

/** The actual cost of an expression over literals only. */
function literalCost(source: string): number {
  const parsed = parse(source);
  const { issues, types } = checkRule(parsed, source, { kind: "dyn" });
  expect(issues).toEqual([]);
  const run = evaluateWithCost(parsed.expr, types, {}, PER_CALL_LIMIT);
  expect(isCelError(run.result)).toBe(false);
  return run.cost;
}

// apiserver pkg/cel/library cost_test.go (TestListsCost, TestIndexOfCost, TestURLsCost) runs without OptOptimize; its
// runtime costs less the folded list literal (10) and conversions (1 each, 2 for bytes('012345678901')) are what CRD
// rules pay: a traversal of the list, 1 per item of five.
const LITERAL_LISTS = [
  "[1, 2, 3, 4, 5]",
  "[uint(1), uint(2), uint(3), uint(4), uint(5)]",
  "[1.0, 2.0, 3.0, 4.0, 5.0]",
  "['012345678901', '012345678901', '012345678901', '012345678901', '012345678901']",
  "[bytes('012345678901'), bytes('012345678901'), bytes('012345678901'), bytes('012345678901'), bytes('012345678901')]",
  "[duration('1s'), duration('2s'), duration('3s'), duration('4s'), duration('5s')]",
];

test("kube's CallCost for the list library is one traversal of the list, literals folded (TestListsCost, TestIndexOfCost)", () => {
  for (const list of LITERAL_LISTS) {
    for (const method of [".isSorted()", ".max()", ".min()"]) {
      expect([list + method, literalCost(list + method)]).toEqual([list + method, 5]);
    }
  }
  expect(literalCost("[1, 2, 3, 4, 5].sum()")).toBe(5);
  expect(literalCost("[1, 2, 3, 4, 5].indexOf(3)")).toBe(5);
  expect(literalCost("[duration('1s'), duration('2s'), duration('3s'), duration('4s'), duration('5s')].lastIndexOf(duration('3s'))")).toBe(
    5,
  );
  expect(literalCost("'01234567890123456789012345678901234567890123456789'.indexOf('123')")).toBe(5);
});

test("url() costs a traversal of its argument, its getters and == one (TestURLsCost)", () => {
  expect(literalCost("url('https:://kubernetes.io/').getScheme()")).toBe(4);
  expect(literalCost("url('https:://kubernetes.io/') == url('https:://kubernetes.io/')")).toBe(7);
  expect(literalCost("url('https:://kubernetes.io/') == url('http://x.b')")).toBe(5);
});

test("costCall's own formulas: contains, string +, find, join and the global matches()", () => {
  // contains_string: ceil(20 × 0.1) × ceil(3 × 0.1).
  expect(literalCost("'01234567890123456789'.contains('123')")).toBe(2);
  // add_string: ceil((20 + 20) × 0.1), then == over 40 and 40 characters: 4.
  expect(literalCost("'01234567890123456789' + '01234567890123456789' == '0123456789012345678901234567890123456789'")).toBe(8);
  // find: ceil(21 × 0.1) × ceil(5 × 0.25), then == 1.
  expect(literalCost("'01234567890123456789'.find('[0-9]') == '0'")).toBe(7);
  // join: ceil(size of the result × 2 × 0.1): 'a,b,c' is 5, then == 1.
  expect(literalCost("['a', 'b', 'c'].join(',') == 'a,b,c'")).toBe(2);
  // The global matches() has overload id "matches", which costCall charges 1; the method is matches_string.
  expect(literalCost("matches('01234567890123456789', '[0-9]+')")).toBe(1);
  expect(literalCost("'01234567890123456789'.matches('[0-9]+')")).toBe(6);
});
