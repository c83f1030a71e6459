import { expect, test } from "bun:test";
import { formatQuantity, parseQuantity } from "./_quantity.ts";

test("parseQuantity() reads milli, decimal and binary suffixes", () => {
  expect(parseQuantity("500m")).toBe(0.5);
  expect(parseQuantity("2")).toBe(2);
  expect(parseQuantity("1Gi")).toBe(2 ** 30);
  expect(parseQuantity("1k")).toBe(1000);
  expect(parseQuantity("1e3")).toBe(1000);
});

test("formatQuantity() writes milli units and binary suffixes back", () => {
  expect(formatQuantity(0.5)).toBe("500m");
  expect(formatQuantity(3)).toBe("3");
  expect(formatQuantity(2 ** 31)).toBe("2Gi");
});
