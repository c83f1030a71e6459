import { expect, test } from "bun:test";
import {
  isEverything,
  labelSelectorFromObject,
  matchesLabels,
  nodeSelectorRequirementsAsSelector,
  parseLabelSelector,
  selectorFromSet,
} from "./label-selector.ts";
import { isStatusError } from "./errors.ts";

const KEY_REGEX_HINT =
  "(e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

function parseError(text: string): string {
  try {
    parseLabelSelector(text);
  } catch (e) {
    if (isStatusError(e) && e.code === 400 && e.reason === "BadRequest") return e.message;
    throw e;
  }
  throw new Error(`"${text}" parsed`);
}

test("parseLabelSelector() accepts kube's valid selector syntax", () => {
  const valid = [
    "",
    "x=a,y=b,z=c",
    "x!=a,y=b",
    "x=",
    "x= ",
    "x=,z= ",
    "x= ,z= ",
    "!x",
    "x>1",
    "x>1,z<5",
    "x in (foo,,baz),y,z notin ()",
    "  x  in  ( foo , bar )  ",
    "x==a",
    "w in (in),notin notin (notin)",
    "example.com/key=value",
  ];
  for (const text of valid) expect(() => parseLabelSelector(text)).not.toThrow();
});

test("parseLabelSelector() sorts requirements by key and their set values", () => {
  expect(parseLabelSelector("z=1, a in (c,b,c), !m").requirements).toEqual([
    { key: "a", operator: "in", values: ["b", "c"] },
    { key: "m", operator: "!", values: [] },
    { key: "z", operator: "=", values: ["1"] },
  ]);
});

test("parseLabelSelector() reads empty and missing values the way kube does", () => {
  expect(parseLabelSelector("x in (foo,,baz)").requirements[0].values).toEqual(["", "baz", "foo"]);
  expect(parseLabelSelector("x in ()").requirements[0].values).toEqual([""]);
  expect(parseLabelSelector("x=").requirements[0].values).toEqual([""]);
  expect(parseLabelSelector("x in (,a)").requirements[0].values).toEqual(["", "a"]);
  expect(parseLabelSelector("x").requirements[0].operator).toBe("exists");
});

test("parseLabelSelector() rejects malformed selectors with kube's messages", () => {
  const cases: [string, string][] = [
    [
      "x=a||y=b",
      "unable to parse requirement: values[0][x]: Invalid value: \"a||y\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
    ],
    ["x==a==b", "found '==', expected: ',' or 'end of string'"],
    ["!x=a", "found '=', expected: ',' or 'end of string'"],
    ["x<a", "unable to parse requirement: values[0]: Invalid value: \"a\": for 'Gt', 'Lt' operators, the value must be an integer"],
    ["a b", "unable to parse requirement: found 'b', expected: in, notin, =, ==, !=, gt, lt"],
    ["x in a", "unable to parse requirement: found 'a' expected: '('"],
    ["x in (a b)", "unable to parse requirement: found 'b', expected: ',' or ')'"],
    ["x=a,", "found '', expected: identifier after ','"],
    [",x", "found ',', expected: !, identifier, or 'end of string'"],
    ["x in (a", "unable to parse requirement: found '', expected: ',' or ')'"],
    [
      "*bar",
      `unable to parse requirement: <nil>: Invalid value: "*bar": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character ${KEY_REGEX_HINT}`,
    ],
  ];
  for (const [text, message] of cases) expect(parseError(text)).toBe(message);
});

test("parseLabelSelector() reports a bad key prefix as kube does", () => {
  expect(parseError("app.kubernetes_io/name=x")).toStartWith(
    'unable to parse requirement: <nil>: Invalid value: "app.kubernetes_io/name": prefix part a lowercase RFC 1123 subdomain must consist of',
  );
});

test("matchesLabels() applies each operator as kube does", () => {
  const labels = { env: "prod", tier: "web", replicas: "3" };
  const cases: [string, boolean][] = [
    ["", true],
    ["env=prod", true],
    ["env==prod", true],
    ["env=dev", false],
    ["env!=dev", true],
    ["missing!=x", true],
    ["env in (dev,prod)", true],
    ["env notin (dev,prod)", false],
    ["missing notin (a)", true],
    ["missing in (a)", false],
    ["tier", true],
    ["!tier", false],
    ["!missing", true],
    ["replicas>2", true],
    ["replicas<3", false],
    ["env>1", false],
    ["missing=", false],
    ["env=prod,tier=db", false],
  ];
  for (const [text, expected] of cases) expect([text, matchesLabels(parseLabelSelector(text), labels)]).toEqual([text, expected]);
  expect(matchesLabels(parseLabelSelector("!a"), undefined)).toBe(true);
});

test("isEverything() is true only for the empty selector", () => {
  expect(isEverything(parseLabelSelector(""))).toBe(true);
  expect(isEverything(parseLabelSelector("a"))).toBe(false);
  expect(isEverything(labelSelectorFromObject(undefined))).toBe(false);
});

test("labelSelectorFromObject() matches nothing when absent and everything when empty", () => {
  expect(matchesLabels(labelSelectorFromObject(undefined), { a: "b" })).toBe(false);
  expect(matchesLabels(labelSelectorFromObject(null), {})).toBe(false);
  expect(matchesLabels(labelSelectorFromObject({}), { a: "b" })).toBe(true);
  expect(isEverything(labelSelectorFromObject({ matchLabels: {}, matchExpressions: [] }))).toBe(true);
});

test("labelSelectorFromObject() ANDs matchLabels and each expression operator", () => {
  const selector = labelSelectorFromObject({
    matchLabels: { app: "web" },
    matchExpressions: [
      { key: "env", operator: "In", values: ["prod", "staging"] },
      { key: "legacy", operator: "DoesNotExist" },
      { key: "tier", operator: "Exists" },
      { key: "zone", operator: "NotIn", values: ["b"] },
    ],
  });
  expect(matchesLabels(selector, { app: "web", env: "prod", tier: "x" })).toBe(true);
  expect(matchesLabels(selector, { app: "web", env: "prod", tier: "x", zone: "b" })).toBe(false);
  expect(matchesLabels(selector, { app: "web", env: "prod", tier: "x", legacy: "1" })).toBe(false);
  expect(matchesLabels(selector, { app: "db", env: "prod", tier: "x" })).toBe(false);
});

test("labelSelectorFromObject() rejects invalid requirements with kube's messages", () => {
  const messageOf = (sel: Parameters<typeof labelSelectorFromObject>[0]) => {
    try {
      labelSelectorFromObject(sel);
    } catch (e) {
      return isStatusError(e) ? e.message : String(e);
    }
    return "no error";
  };
  expect(messageOf({ matchExpressions: [{ key: "a", operator: "Foo" }] })).toBe('"Foo" is not a valid label selector operator');
  expect(messageOf({ matchExpressions: [{ key: "a", operator: "In", values: [] }] })).toBe(
    "values: Invalid value: []string(nil): for 'in', 'notin' operators, values set can't be empty",
  );
  expect(messageOf({ matchExpressions: [{ key: "a", operator: "Exists", values: ["x"] }] })).toBe(
    'values: Invalid value: []string{"x"}: values set must be empty for exists and does not exist',
  );
  expect(messageOf({ matchLabels: { "a b": "c" } })).toBe(
    `key: Invalid value: "a b": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character ${KEY_REGEX_HINT}`,
  );
});

test("selectorFromSet() matches every key to its value and an empty set matches everything (labels.SelectorFromSet)", () => {
  expect(matchesLabels(selectorFromSet({ app: "web" }), { app: "web", tier: "x" })).toBe(true);
  expect(matchesLabels(selectorFromSet({ app: "web" }), { app: "db" })).toBe(false);
  expect(matchesLabels(selectorFromSet({}), undefined)).toBe(true);
});

test("nodeSelectorRequirementsAsSelector() reads In, NotIn, Exists, DoesNotExist, Gt and Lt; empty or invalid matches nothing", () => {
  const labels = { zone: "a", cores: "8" };
  expect(
    matchesLabels(
      nodeSelectorRequirementsAsSelector([{ key: "zone", operator: "In", values: ["a", "b"] }, {
        key: "cores",
        operator: "Gt",
        values: ["4"],
      }]),
      labels,
    ),
  ).toBe(true);
  expect(matchesLabels(nodeSelectorRequirementsAsSelector([{ key: "cores", operator: "Lt", values: ["4"] }]), labels)).toBe(false);
  expect(matchesLabels(nodeSelectorRequirementsAsSelector([{ key: "gpu", operator: "DoesNotExist" }]), labels)).toBe(true);
  expect(matchesLabels(nodeSelectorRequirementsAsSelector([]), labels)).toBe(false);
  expect(matchesLabels(nodeSelectorRequirementsAsSelector([{ key: "zone", operator: "Near", values: ["a"] }]), labels)).toBe(false);
});
