import { expect, test } from "bun:test";
import { lazyEntryPoint, lazyModule } from "./lazy-module.ts";
import type * as Counted from "./testdata/lazy-counted.ts";

const loads = () => (globalThis as { lazyCountedLoads?: number }).lazyCountedLoads ?? 0;

test("a lazy module is evaluated at its first use, once, and not when the accessor is made", () => {
  const counted = lazyModule<typeof Counted>(() => require("./testdata/lazy-counted.ts"), import.meta.url, "./testdata/lazy-counted.ts");
  expect(loads()).toBe(0);
  expect(counted().answer).toBe(42);
  expect(counted()).toBe(counted());
  expect(loads()).toBe(1);
});

test("a lazy entry point run from source is the module its specifier names from the caller, loaded once", () => {
  const counted = lazyEntryPoint<typeof Counted>("core/runtime/testdata/lazy-counted.ts", import.meta.url, "./testdata/lazy-counted.ts");
  expect(counted().answer).toBe(42);
  expect(counted()).toBe(counted());
  expect(counted()).toBe(require("./testdata/lazy-counted.ts"));
  expect(loads()).toBe(1);
});
