import { expect, test } from "bun:test";
import {
  addQuantities,
  canonicalQuantity,
  compareQuantities,
  countQuantity,
  formatQuantity,
  maxQuantity,
  milliValue,
  parseQuantity,
  quantityOrZero,
  subtractQuantities,
  ZERO_QUANTITY,
} from "./quantity.ts";

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

const q = (text: string) => parseQuantity(text)!;

test("100m + 200m is exactly 300m, where floats make 0.1 + 0.2 > 0.3 (Quantity.Add)", () => {
  const sum = addQuantities(q("100m"), q("200m"));
  expect(formatQuantity(sum)).toBe("300m");
  expect(compareQuantities(sum, q("300m"))).toBe(0);
  expect(compareQuantities(addQuantities(q("0.1"), q("0.2")), q("0.3"))).toBe(0);
});

test("a sum keeps the first operand's format, or the second's when the first is zero (Quantity.Add)", () => {
  expect(formatQuantity(addQuantities(q("1Gi"), q("512Mi")))).toBe("1536Mi");
  expect(formatQuantity(addQuantities(q("1"), q("1Ki")))).toBe("1025");
  expect(formatQuantity(addQuantities(ZERO_QUANTITY, q("1Gi")))).toBe("1Gi");
  expect(formatQuantity(addQuantities(countQuantity(2), countQuantity(1)))).toBe("3");
});

test("subtraction and comparison are exact (Quantity.Sub, Quantity.Cmp)", () => {
  expect(formatQuantity(subtractQuantities(q("1"), q("100m")))).toBe("900m");
  expect(compareQuantities(q("1Gi"), q("1073741824"))).toBe(0);
  expect(compareQuantities(q("1G"), q("1Gi"))).toBe(-1);
  expect(compareQuantities(q("2"), q("1999m"))).toBe(1);
  expect(formatQuantity(maxQuantity(q("250m"), q("1")))).toBe("1");
});

test("MilliValue rounds up and empty text is no quantity (ScaledValue, ErrFormatWrong)", () => {
  expect(milliValue(q("1n"))).toBe(1);
  expect(milliValue(q("1.5"))).toBe(1500);
  expect(parseQuantity("")).toBeUndefined();
  expect(parseQuantity("12abc")).toBeUndefined();
  expect(quantityOrZero(undefined)).toEqual(ZERO_QUANTITY);
});
