import { expect, test } from "bun:test";
import { isEverythingFields, matchesFields, parseFieldSelector, validateFieldSelector } from "./field-selector.ts";
import { isStatusError } from "./errors.ts";
import { DEFAULT_FIELDS, JOB_FIELDS, type KindFields, NODE_FIELDS, POD_FIELDS } from "./field-labels.ts";

function badRequestMessage(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    if (isStatusError(e) && e.code === 400) return e.message;
    throw e;
  }
  throw new Error("no error");
}

test("parseFieldSelector() reads =, == and != terms joined by commas", () => {
  expect(parseFieldSelector("b==2,a=1,c!=3").requirements).toEqual([
    { field: "a", operator: "=", value: "1" },
    { field: "b", operator: "=", value: "2" },
    { field: "c", operator: "!=", value: "3" },
  ]);
  expect(parseFieldSelector("").requirements).toEqual([]);
  expect(parseFieldSelector("a=1,,").requirements).toHaveLength(1);
  expect(parseFieldSelector("a=").requirements).toEqual([{ field: "a", operator: "=", value: "" }]);
});

test("parseFieldSelector() unescapes backslash, comma and equals in values", () => {
  expect(parseFieldSelector("a=x\\,y\\=z\\\\w,b=2").requirements).toEqual([
    { field: "a", operator: "=", value: "x,y=z\\w" },
    { field: "b", operator: "=", value: "2" },
  ]);
});

test("parseFieldSelector() splits a term at the first operator", () => {
  expect(parseFieldSelector("a==b").requirements).toEqual([{ field: "a", operator: "=", value: "b" }]);
  expect(badRequestMessage(() => parseFieldSelector("a!==b"))).toBe("invalid field selector: unescaped character in value: 61");
});

test("parseFieldSelector() rejects malformed selectors with kube's messages", () => {
  const cases: [string, string][] = [
    ["foo", "invalid selector: 'foo'; can't understand 'foo'"],
    ["a=1,bar", "invalid selector: 'a=1,bar'; can't understand 'bar'"],
    ["a=x\\y", "invalid field selector: invalid escape sequence: \\y"],
    ["a=x\\", "invalid field selector: invalid escape sequence: \\"],
    ["a=x=y", "invalid field selector: unescaped character in value: 61"],
  ];
  for (const [text, message] of cases) expect(badRequestMessage(() => parseFieldSelector(text))).toBe(message);
});

test("matchesFields() treats a missing field as the empty string", () => {
  const fields = { "metadata.name": "web", "spec.nodeName": "" };
  expect(matchesFields(parseFieldSelector("metadata.name=web"), fields)).toBe(true);
  expect(matchesFields(parseFieldSelector("metadata.name!=web"), fields)).toBe(false);
  expect(matchesFields(parseFieldSelector("spec.nodeName="), fields)).toBe(true);
  expect(matchesFields(parseFieldSelector("status.phase="), fields)).toBe(true);
  expect(matchesFields(parseFieldSelector("status.phase=Running"), fields)).toBe(false);
  expect(matchesFields(parseFieldSelector("metadata.name=web,spec.nodeName!=n1"), fields)).toBe(true);
  expect(isEverythingFields(parseFieldSelector(""))).toBe(true);
  expect(isEverythingFields(parseFieldSelector("a=b"))).toBe(false);
});

test("validateFieldSelector() answers each kind's own 400 for unsupported fields", () => {
  const cases: [KindFields, string, string][] = [
    [POD_FIELDS, "foo=bar", "field label not supported: foo"],
    [NODE_FIELDS, "metadata.namespace=x", "field label not supported: metadata.namespace"],
    [JOB_FIELDS, "status.succeeded=1", 'field label "status.succeeded" not supported for batchv1.Job'],
    [DEFAULT_FIELDS, "data.x=1", '"data.x" is not a known field selector: only "metadata.name", "metadata.namespace"'],
    [
      DEFAULT_FIELDS,
      "status.replicas=1",
      '"status.replicas" is not a known field selector: only "metadata.name", "metadata.namespace"',
    ],
  ];
  for (const [fields, text, message] of cases) {
    expect(badRequestMessage(() => validateFieldSelector(parseFieldSelector(text), fields))).toBe(message);
  }
});

test("validateFieldSelector() rewrites pods' spec.host to spec.nodeName", () => {
  const converted = validateFieldSelector(parseFieldSelector("spec.host=n1,status.phase=Running"), POD_FIELDS);
  expect(converted.requirements.map((r) => r.field)).toEqual(["spec.nodeName", "status.phase"]);
});
