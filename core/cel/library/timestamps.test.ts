import { expect, test } from "bun:test";
import { celValue } from "./_expect.ts";

// Go's time.Format(time.RFC3339Nano) as cel-go's Timestamp.ConvertToType(StringType) uses it.
test("string(timestamp) keeps the written offset and trims the fraction's trailing zeros (Timestamp.ConvertToType)", () => {
  expect(celValue("string(timestamp('2023-01-01T10:00:00+02:00'))")).toBe("2023-01-01T10:00:00+02:00");
  expect(celValue("string(timestamp('2023-01-01T10:00:00.100Z'))")).toBe("2023-01-01T10:00:00.1Z");
  expect(celValue("string(timestamp('2023-01-01T10:00:00.000001-05:30'))")).toBe("2023-01-01T10:00:00.000001-05:30");
  expect(celValue("string(timestamp('2023-01-01T10:00:00.123456789Z'))")).toBe("2023-01-01T10:00:00.123456789Z");
  expect(celValue("string(timestamp('2023-01-01T10:00:00+00:00'))")).toBe("2023-01-01T10:00:00Z");
  expect(celValue("string(timestamp('0001-01-01T00:00:00Z'))")).toBe("0001-01-01T00:00:00Z");
});

test("timestamp ± duration keeps the timestamp's offset, as time.Time.Add keeps its location", () => {
  expect(celValue("string(timestamp('2023-01-01T10:00:00.5-05:30') + duration('1h'))")).toBe("2023-01-01T11:00:00.5-05:30");
  expect(celValue("string(duration('1h') + timestamp('2023-01-01T10:00:00+05:45'))")).toBe("2023-01-01T11:00:00+05:45");
  expect(celValue("string(timestamp('2023-01-01T10:00:00+02:00') - duration('30m'))")).toBe("2023-01-01T09:30:00+02:00");
  expect(celValue("string(timestamp(timestamp('2023-01-01T10:00:00+02:00')))")).toBe("2023-01-01T10:00:00+02:00");
});

test("getters without a time zone read the offset's wall clock; with one, that zone's (Timestamp.Receive, timeZone)", () => {
  expect(celValue("timestamp('2023-01-01T10:00:00+02:00').getHours()")).toBe(10n);
  expect(celValue("timestamp('2023-01-01T10:00:00+02:00').getHours('UTC')")).toBe(8n);
  expect(celValue("timestamp('2023-01-01T23:30:00-02:00').getDayOfWeek()")).toBe(0n);
  expect(celValue("timestamp('2023-01-01T23:30:00-02:00').getDate()")).toBe(1n);
  expect(celValue("timestamp('2023-12-31T23:30:00-02:00').getFullYear()")).toBe(2023n);
  expect(celValue("timestamp('2023-01-01T23:30:00-02:00').getMinutes()")).toBe(30n);
  // The instant is unchanged: comparisons and int() ignore the offset.
  expect(celValue("timestamp('2023-01-01T10:00:00+02:00') == timestamp('2023-01-01T08:00:00Z')")).toBe(true);
  expect(celValue("int(timestamp('1970-01-01T02:00:00+02:00'))")).toBe(0n);
});

test("timestamps that do not parse or leave the range fail as before", () => {
  expect(() => celValue("timestamp('bad')")).toThrow("Failed to parse timestamp");
  expect(() => celValue("timestamp('9999-12-31T23:59:59Z') + duration('1s')")).toThrow("timestamp out of range");
});
