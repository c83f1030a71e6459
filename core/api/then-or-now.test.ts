import { expect, test } from "bun:test";
import { thenOrNow } from "./then-or-now.ts";

test("a value at hand is passed on at once, without a promise", () => {
  expect(thenOrNow(2, (n) => n * 3)).toBe(6);
});

test("a promise is followed: the step runs after it, and its rejection passes through", async () => {
  const pending = thenOrNow(Promise.resolve(2), (n) => n * 3);
  expect(pending).toBeInstanceOf(Promise);
  expect(await pending).toBe(6);
  expect(await Promise.resolve(thenOrNow(Promise.reject(new Error("no")), (n: number) => n)).catch((e: Error) => e.message)).toBe("no");
});
