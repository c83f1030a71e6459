import { expect, test } from "bun:test";
import { watchTimeoutSeconds } from "./watch.ts";

test("ListResource: timeoutSeconds is kept when given and not 0", () => {
  expect(watchTimeoutSeconds(7, 1800)).toBe(7);
});

test("ListResource: without timeoutSeconds (or with 0) a watch lasts between --min-request-timeout and twice it", () => {
  for (const requested of [undefined, 0]) {
    const seconds = watchTimeoutSeconds(requested, 1800);
    expect(seconds).toBeGreaterThanOrEqual(1800);
    expect(seconds).toBeLessThan(3600);
  }
});

test("ListResource: --min-request-timeout=0 and no timeoutSeconds means no timeout", () => {
  expect(watchTimeoutSeconds(undefined, 0)).toBe(Infinity);
});
