import { expect, test } from "bun:test";
import { isJSONInteger, mayHoldInexactInteger, parseJSONExact } from "./exact-integers.ts";
import { decodeBody } from "./decode-body.ts";

const INT64_MAX = "9223372036854775807";

test("parseJSONExact() keeps int64 values beyond 2^53 exact and writes them back digit for digit, as Go's int64", () => {
  const text =
    `{"max":${INT64_MAX},"min":-9223372036854775808,"next":9007199254740993,"safe":9007199254740991,"small":42,"float":1.5,"exp":1e3}`;
  const value = parseJSONExact(text) as Record<string, unknown>;
  expect(value).toEqual({
    max: 9223372036854775807n,
    min: -9223372036854775808n,
    next: 9007199254740993n,
    safe: 9007199254740991,
    small: 42,
    float: 1.5,
    exp: 1000,
  });
  expect(JSON.stringify(value)).toBe(
    `{"max":${INT64_MAX},"min":-9223372036854775808,"next":9007199254740993,"safe":9007199254740991,"small":42,"float":1.5,"exp":1000}`,
  );
  expect(JSON.stringify(structuredClone(value))).toBe(JSON.stringify(value));
});

test("parseJSONExact() takes JSON.parse's path for texts without a run of 16 digits", () => {
  expect(mayHoldInexactInteger('{"a":123456789012345,"b":"x"}')).toBe(false);
  expect(mayHoldInexactInteger(`{"a":${INT64_MAX}}`)).toBe(true);
  expect(parseJSONExact('{"a":[1,2,{"b":null}]}')).toEqual({ a: [1, 2, { b: null }] });
  // A long digit run inside a string is only a false alarm: the value stays a string.
  expect(parseJSONExact('{"a":"12345678901234567890"}')).toEqual({ a: "12345678901234567890" });
});

test("isJSONInteger() accepts whole numbers and BigInts only", () => {
  expect([1, -3, 9223372036854775807n, 1.5, "1", null].map(isJSONInteger)).toEqual([true, true, true, false, false, false]);
});

test("(await decodeBody()) keeps big integers exact in JSON and in YAML (apply-patch+yaml) bodies", async () => {
  const encode = (text: string) => new TextEncoder().encode(text);
  const json = await decodeBody(encode(`{"spec":{"n":${INT64_MAX}}}`), "application/json", { accepted: ["application/json"] });
  expect(json.value).toEqual({ spec: { n: 9223372036854775807n } });
  const yaml = await decodeBody(encode(`spec:\n  big: ${INT64_MAX}\n  m: 7\n  s: "${INT64_MAX}"\n`), "application/apply-patch+yaml", {
    accepted: ["application/apply-patch+yaml"],
  });
  expect(yaml.value).toEqual({ spec: { big: 9223372036854775807n, m: 7, s: INT64_MAX } });
});
