import { expect, test } from "bun:test";
import { boolFlag, enumFlag, float32Flag, formatGoDuration, intFlag, parseGoDuration } from "./flag-types.ts";

test("parseGoDuration() reads Go duration syntax into milliseconds", () => {
  expect(parseGoDuration("90s")).toBe(90_000);
  expect(parseGoDuration("5m")).toBe(300_000);
  expect(parseGoDuration("1h30m")).toBe(5_400_000);
  expect(parseGoDuration("1.5s")).toBe(1500);
  expect(parseGoDuration("250ms")).toBe(250);
  expect(parseGoDuration("0")).toBe(0);
  expect(parseGoDuration("-2m")).toBe(-120_000);
});

test("parseGoDuration() rejects a number without unit and unknown units like Go does", () => {
  expect(() => parseGoDuration("5")).toThrow('time: missing unit in duration "5"');
  expect(() => parseGoDuration("5x")).toThrow('time: unknown unit "x" in duration "5x"');
  expect(() => parseGoDuration("")).toThrow('time: invalid duration ""');
});

test("formatGoDuration() prints like Go's Duration.String()", () => {
  expect(formatGoDuration(300_000)).toBe("5m0s");
  expect(formatGoDuration(5_400_000)).toBe("1h30m0s");
  expect(formatGoDuration(1500)).toBe("1.5s");
  expect(formatGoDuration(250)).toBe("250ms");
  expect(formatGoDuration(0)).toBe("0s");
});

test("intFlag rejects text that is not a whole number", () => {
  expect(intFlag.parse("7443")).toBe(7443);
  expect(() => intFlag.parse("12abc")).toThrow('strconv.ParseInt: parsing "12abc": invalid syntax');
});

test("float32Flag reads decimals (the audit throttle QPS) and rejects other text like strconv.ParseFloat", () => {
  expect(float32Flag.parse("0.5")).toBe(0.5);
  expect(() => float32Flag.parse("fast")).toThrow('strconv.ParseFloat: parsing "fast": invalid syntax');
});

test("boolFlag accepts Go's ParseBool spellings only", () => {
  expect(boolFlag.parse("false")).toBe(false);
  expect(boolFlag.parse("T")).toBe(true);
  expect(() => boolFlag.parse("yes")).toThrow("invalid syntax");
});

test("enumFlag accepts its values case-insensitively and names them on error", () => {
  const sync = enumFlag(["FULL", "NORMAL"] as const);
  expect(sync.parse("normal")).toBe("NORMAL");
  expect(() => sync.parse("OFF")).toThrow("must be one of FULL, NORMAL");
});
