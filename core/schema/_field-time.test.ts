import { expect, test } from "bun:test";
import { canonicalTime, RFC3339, RFC3339_MICRO, timeParseError } from "./_field-time.ts";

test("timeParseError() accepts RFC 3339 timestamps, with or without a fraction, in UTC or with an offset", () => {
  for (
    const ok of [
      "2023-01-02T03:04:05Z",
      "2023-01-02T03:04:05.123Z",
      "2023-01-02T03:04:05+02:00",
      "2024-02-29T00:00:00Z",
      "2023-01-02T3:04:05Z",
    ]
  ) {
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
    expect(timeParseError(RFC3339, value)).toBe(
      `parsing time "${value}" as "2006-01-02T15:04:05Z07:00": cannot parse "${rest}" as "${element}"`,
    );
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

test("canonicalTime() writes metav1.Time as UTC whole seconds, as its MarshalJSON (t.UTC().Format(time.RFC3339))", () => {
  const cases: [string, string][] = [
    ["2024-05-01T10:00:00Z", "2024-05-01T10:00:00Z"],
    ["2024-05-01T12:30:00+02:00", "2024-05-01T10:30:00Z"],
    ["2024-05-01T10:00:00.999999999Z", "2024-05-01T10:00:00Z"],
    ["2024-12-31T23:30:00-01:00", "2025-01-01T00:30:00Z"],
    ["2024-03-01T00:15:00+00:30", "2024-02-29T23:45:00Z"],
    ["0050-01-01T00:00:00Z", "0050-01-01T00:00:00Z"],
    ["0000-01-01T00:00:00+01:00", "0000-01-01T00:00:00+01:00"],
  ];
  for (const [sent, stored] of cases) expect([sent, canonicalTime(RFC3339, sent)]).toEqual([sent, stored]);
});

test("canonicalTime() writes metav1.MicroTime as UTC with six fraction digits, as its MarshalJSON (RFC3339Micro)", () => {
  expect(canonicalTime(RFC3339_MICRO, "2024-05-01T10:00:00.123456Z")).toBe("2024-05-01T10:00:00.123456Z");
  expect(canonicalTime(RFC3339_MICRO, "2024-05-01T07:00:00.000001-03:00")).toBe("2024-05-01T10:00:00.000001Z");
  expect(canonicalTime(RFC3339_MICRO, "2024-05-01T10:00:00,500000+00:00")).toBe("2024-05-01T10:00:00.500000Z");
});

test("timeParseError() and canonicalTime() on values in their marshalled form: every real date parses and is kept, every other is refused as Go refuses it", () => {
  for (const year of [2023, 2024]) {
    for (let month = 1; month <= 12; month++) {
      for (let day = 28; day <= 32; day++) {
        const date = `${year}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
        const real = new Date(Date.UTC(year, month - 1, day)).getUTCDate() === day;
        for (const [layout, value] of [[RFC3339, `${date}T23:59:59Z`], [RFC3339_MICRO, `${date}T23:59:59.000001Z`]] as const) {
          const expected = real ? undefined : `parsing time "${value}": day out of range`;
          expect([value, timeParseError(layout, value)]).toEqual([value, expected]);
          if (real) expect(canonicalTime(layout, value)).toBe(value);
        }
      }
    }
  }
  expect(timeParseError(RFC3339, "2024-00-10T00:00:00Z")).toBe('parsing time "2024-00-10T00:00:00Z": month out of range');
  expect(timeParseError(RFC3339, "2024-01-10T00:60:00Z")).toBe('parsing time "2024-01-10T00:60:00Z": minute out of range');
  expect(timeParseError(RFC3339, "2024-01-10T00:00:60Z")).toBe('parsing time "2024-01-10T00:00:60Z": second out of range');
});

test("February 29th is a day of every leap year as Go's time.isLeap counts them, year 0 included, and of no other", () => {
  for (const value of ["0000-02-29T00:00:00Z", "0004-02-29T00:00:00Z", "2000-02-29T00:00:00Z", "2024-02-29T00:00:00.5Z"]) {
    expect(timeParseError(RFC3339, value)).toBeUndefined();
  }
  for (const year of ["0100", "1900", "2023"]) {
    const value = `${year}-02-29T00:00:00Z`;
    expect(timeParseError(RFC3339, value)).toBe(`parsing time "${value}": day out of range`);
  }
  expect(canonicalTime(RFC3339, "0000-02-29T00:00:00Z")).toBe("0000-02-29T00:00:00Z");
});
