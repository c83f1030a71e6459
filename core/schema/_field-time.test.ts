import { expect, test } from "bun:test";
import { RFC3339, RFC3339_MICRO, timeParseError } from "./_field-time.ts";

test("timeParseError() accepts RFC 3339 timestamps, with or without a fraction, in UTC or with an offset", () => {
  for (const ok of ["2023-01-02T03:04:05Z", "2023-01-02T03:04:05.123Z", "2023-01-02T03:04:05+02:00", "2024-02-29T00:00:00Z", "2023-01-02T3:04:05Z"]) {
    expect({ ok, error: timeParseError(RFC3339, ok) }).toEqual({ ok, error: undefined });
  }
  expect(timeParseError(RFC3339_MICRO, "2023-01-02T03:04:05.123456Z")).toBeUndefined();
});

test("timeParseError() names the element Go could not parse and the text left at that point", () => {
  const cases: [string, string, string][] = [
    ["yesterday", "yesterday", "2006"],
    ["2023/01/02T03:04:05Z", "/01/02T03:04:05Z", "-"],
    ["2023-1-02T03:04:05Z", "1-02T03:04:05Z", "01"],
    ["2023-01-02 03:04:05Z", " 03:04:05Z", "T"],
    ["2023-01-02T03:04:05", "", "Z07:00"],
    ["2023-01-02T03:04:05+0200", "+0200", "Z07:00"],
  ];
  for (const [value, rest, element] of cases) {
    expect(timeParseError(RFC3339, value)).toBe(`parsing time "${value}" as "2006-01-02T15:04:05Z07:00": cannot parse "${rest}" as "${element}"`);
  }
  expect(timeParseError(RFC3339_MICRO, "2023-01-02T03:04:05Z"))
    .toBe('parsing time "2023-01-02T03:04:05Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse "Z" as ".000000"');
});

test("timeParseError() reports out-of-range parts and trailing text as Go does", () => {
  expect(timeParseError(RFC3339, "2023-13-02T03:04:05Z")).toBe('parsing time "2023-13-02T03:04:05Z": month out of range');
  expect(timeParseError(RFC3339, "2023-01-02T24:04:05Z")).toBe('parsing time "2023-01-02T24:04:05Z": hour out of range');
  expect(timeParseError(RFC3339, "2023-02-29T03:04:05Z")).toBe('parsing time "2023-02-29T03:04:05Z": day out of range');
  expect(timeParseError(RFC3339, "2023-01-02T03:04:05Zjunk")).toBe('parsing time "2023-01-02T03:04:05Zjunk": extra text: "junk"');
  expect(timeParseError(RFC3339, 'a"b')).toBe('parsing time "a\\"b" as "2006-01-02T15:04:05Z07:00": cannot parse "a\\"b" as "2006"');
});
