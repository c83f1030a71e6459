import { expect, test } from "bun:test";
import { celValue } from "./_expect.ts";

// Facts from k8s.io/apiserver/pkg/cel/library lists_test.go (1.26); the test code is this project's.
test("isSorted() orders ints, doubles, strings and timestamps; an empty list is sorted (lists.go isSorted)", () => {
  expect(celValue("[].isSorted()")).toBe(true);
  expect(celValue("[1, 2, 3].isSorted()")).toBe(true);
  expect(celValue("[1, 3, 2].isSorted()")).toBe(false);
  expect(celValue("[1.0, 2.0].isSorted()")).toBe(true);
  expect(celValue("['a', 'b', 'b'].isSorted()")).toBe(true);
  expect(celValue("[timestamp('2000-01-01T00:00:00Z'), timestamp('1999-01-01T00:00:00Z')].isSorted()")).toBe(false);
});

test("sum() adds ints, doubles and durations; an empty list sums to 0 (lists.go sum)", () => {
  expect(celValue("[1, 2, 3].sum()")).toBe(6n);
  expect(celValue("[1.5, 2.5].sum()")).toBe(4);
  expect(celValue("[duration('1s'), duration('2s')].sum() == duration('3s')")).toBe(true);
  expect(celValue("[].sum()")).toBe(0n);
});

test("min() and max() pick the extreme and fail on an empty list (lists.go min/max)", () => {
  expect(celValue("[3, 1, 2].min()")).toBe(1n);
  expect(celValue("[3, 1, 2].max()")).toBe(3n);
  expect(celValue("['b', 'a'].min()")).toBe("a");
  expect(() => celValue("[].min()")).toThrow("min called on empty list");
  expect(() => celValue("[].max()")).toThrow("max called on empty list");
});

test("indexOf() and lastIndexOf() find an element or answer -1 (lists.go indexOf/lastIndexOf)", () => {
  expect(celValue("[1, 2, 3, 1].indexOf(1)")).toBe(0n);
  expect(celValue("[1, 2, 3, 1].lastIndexOf(1)")).toBe(3n);
  expect(celValue("['a', 'b'].indexOf('c')")).toBe(-1n);
  expect(celValue("[[1], [2]].indexOf([2])")).toBe(1n);
});
