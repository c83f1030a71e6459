import { expect, test } from "bun:test";
import { statusErrorOf } from "./testing.ts";
import { parseListOptions, parseResourceVersion } from "./list-options.ts";

const parse = (query: string) => parseListOptions(new URLSearchParams(query));

test("parseListOptions() defaults every option when the query is empty", () => {
  const options = parse("");
  expect(options).toMatchObject({
    watch: false,
    allowWatchBookmarks: false,
    resourceVersion: "",
    resourceVersionMatch: "",
    limit: 0,
    continue: "",
  });
  expect(options.timeoutSeconds).toBeUndefined();
  expect(options.labelSelector.requirements).toEqual([]);
  expect(options.fieldSelector.requirements).toEqual([]);
});

test("parseListOptions() reads booleans as kube does: only 0 and false are false", () => {
  const cases: [string, boolean][] = [
    ["watch=1", true],
    ["watch=true", true],
    ["watch=", true],
    ["watch", true],
    ["watch=yes", true],
    ["watch=0", false],
    ["watch=false", false],
    ["watch=FALSE", false],
  ];
  for (const [query, expected] of cases) expect([query, parse(query).watch]).toEqual([query, expected]);
  expect(parse("allowWatchBookmarks=true").allowWatchBookmarks).toBe(true);
});

test("parseListOptions() reads numbers and selectors", () => {
  const options = parse("limit=500&timeoutSeconds=30&continue=abc&labelSelector=app%3Dweb&fieldSelector=metadata.name%3Dx");
  expect(options.limit).toBe(500);
  expect(options.timeoutSeconds).toBe(30);
  expect(options.continue).toBe("abc");
  expect(options.labelSelector.requirements).toEqual([{ key: "app", operator: "=", values: ["web"] }]);
  expect(options.fieldSelector.requirements).toEqual([{ field: "metadata.name", operator: "=", value: "x" }]);
  expect(parse("limit=-5").limit).toBe(0);
});

test("parseListOptions() answers 400 with Go's message for numbers that do not parse", () => {
  const cases: [string, string][] = [
    ["limit=abc", 'strconv.ParseInt: parsing "abc": invalid syntax'],
    ["limit=", 'strconv.ParseInt: parsing "": invalid syntax'],
    ["timeoutSeconds=1.5", 'strconv.ParseInt: parsing "1.5": invalid syntax'],
    ["limit=99999999999999999999", 'strconv.ParseInt: parsing "99999999999999999999": value out of range'],
    ["labelSelector=a%20b", "unable to parse requirement: found 'b', expected: in, notin, =, ==, !=, gt, lt"],
    ["fieldSelector=foo", "invalid selector: 'foo'; can't understand 'foo'"],
  ];
  for (const [query, message] of cases) {
    const error = statusErrorOf(() => parse(query));
    expect([query, error.code, error.message]).toEqual([query, 400, message]);
  }
});

test("parseListOptions() answers 422 for the resourceVersionMatch combinations kube forbids", () => {
  const prefix = 'ListOptions.meta.k8s.io "" is invalid: ';
  const cases: [string, string][] = [
    ["resourceVersionMatch=Exact", "resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided"],
    [
      "resourceVersionMatch=NotOlderThan&resourceVersion=5&continue=x",
      "resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden when continue is provided",
    ],
    [
      "resourceVersionMatch=Exact&resourceVersion=0",
      'resourceVersionMatch: Forbidden: resourceVersionMatch "exact" is forbidden for resourceVersion "0"',
    ],
    [
      "resourceVersionMatch=exact&resourceVersion=5",
      'resourceVersionMatch: Unsupported value: "exact": supported values: "Exact", "NotOlderThan", ""',
    ],
    [
      "watch=1&resourceVersionMatch=NotOlderThan&resourceVersion=5",
      "resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch",
    ],
    [
      "resourceVersionMatch=Bogus",
      '[resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided, resourceVersionMatch: Unsupported value: "Bogus": supported values: "Exact", "NotOlderThan", ""]',
    ],
  ];
  for (const [query, message] of cases) {
    const error = statusErrorOf(() => parse(query));
    expect([query, error.code, error.reason, error.message]).toEqual([query, 422, "Invalid", prefix + message]);
  }
  // kube's StatusDetails.name is omitempty: an options error names no object.
  const details = statusErrorOf(() => parse("resourceVersionMatch=Exact")).details;
  expect({ group: details?.group, kind: details?.kind, name: details?.name }).toEqual({
    group: "meta.k8s.io",
    kind: "ListOptions",
    name: undefined,
  });
});

test("parseListOptions() ignores sendInitialEvents, which 1.26 does not know", () => {
  expect(() => parse("sendInitialEvents=true")).not.toThrow();
});

test("parseResourceVersion() reads uint64 versions and rejects others as kube's storage does", () => {
  expect(parseResourceVersion("")).toBe(0);
  expect(parseResourceVersion("0")).toBe(0);
  expect(parseResourceVersion("123")).toBe(123);
  const error = statusErrorOf(() => parseResourceVersion("abc"));
  expect([error.code, error.message]).toEqual([
    400,
    'invalid resource version: resourceVersion: Invalid value: "abc": strconv.ParseUint: parsing "abc": invalid syntax',
  ]);
  expect(statusErrorOf(() => parseResourceVersion("-1")).message).toContain('parsing "-1": invalid syntax');
});
