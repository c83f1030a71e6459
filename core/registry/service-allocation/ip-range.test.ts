import { expect, test } from "bun:test";
import { formatIPv4, offsetOf, parsePortRange, parseServiceCIDR } from "./ip-range.ts";

test("a /24 service range has 254 usable addresses and a lower band of 16", () => {
  const range = parseServiceCIDR("10.0.0.0/24");
  expect(range).toEqual({ cidr: "10.0.0.0/24", first: range.first, size: 254, lowerBand: 16 });
  expect(formatIPv4(range.first)).toBe("10.0.0.1");
  expect(offsetOf(range, "10.0.0.1")).toBe(0);
  expect(offsetOf(range, "10.0.0.255")).toBeUndefined();
  expect(offsetOf(range, "10.0.1.5")).toBeUndefined();
});

test("the lower band grows with the range up to 256 addresses", () => {
  expect(parseServiceCIDR("10.96.0.0/12").lowerBand).toBe(256);
  expect(parseServiceCIDR("10.96.0.0/20").lowerBand).toBe(256);
  expect(parseServiceCIDR("10.96.0.0/22").lowerBand).toBe(64);
  expect(parseServiceCIDR("10.96.0.7/28").cidr).toBe("10.96.0.0/28");
});

test("node port ranges read first-last", () => {
  expect(parsePortRange("30000-32767")).toEqual({ base: 30000, size: 2768, text: "30000-32767" });
  expect(() => parsePortRange("9-1")).toThrow();
});
