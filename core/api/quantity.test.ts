import { expect, test } from "bun:test";
import { canonicalQuantity } from "./quantity.ts";

// Cases from kube's quantity_test.go (TestQuantityCanonicalize and friends) and its documented examples.
test.each([
  ["0", "0"],
  ["1", "1"],
  ["1000", "1k"],
  ["1500", "1500"],
  ["0.5", "500m"],
  ["1.5", "1500m"],
  ["100m", "100m"],
  ["1000m", "1"],
  ["0.1", "100m"],
  ["0.0001", "100u"],
  ["1n", "1n"],
  ["0.5n", "1n"],
  ["100M", "100M"],
  ["1000M", "1G"],
  ["-1.5", "-1500m"],
  ["1Ki", "1Ki"],
  ["1024Ki", "1Mi"],
  ["1.5Gi", "1536Mi"],
  ["0.5Ki", "512"],
  ["1536", "1536"],
  ["1.1Ki", "1126400m"],
  ["0Mi", "0"],
  ["1e3", "1e3"],
  ["12e6", "12e6"],
  ["1000e-3", "1"],
])("canonicalQuantity(%p) is %p", (input, expected) => {
  expect(canonicalQuantity(input)).toBe(expected);
});

test("JSON numbers are quantities too", () => {
  expect(canonicalQuantity(2)).toBe("2");
  expect(canonicalQuantity(0.25)).toBe("250m");
});

test("text that is not a quantity has no canonical form", () => {
  expect(canonicalQuantity("abc")).toBeUndefined();
  expect(canonicalQuantity("1Qi")).toBeUndefined();
});
