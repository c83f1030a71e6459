import { expect, test } from "bun:test";
import { ReleaseTrigger } from "./memory-release.ts";

const MB = 1_000_000;

test("during a burst a collection is due once the process grew by the threshold since the last one", () => {
  const trigger = new ReleaseTrigger(32 * MB, 100 * MB);
  expect(trigger.due(110 * MB)).toBe(false);
  expect(trigger.due(120 * MB)).toBe(false);
  expect(trigger.due(132 * MB)).toBe(true);
  trigger.collected(110 * MB);
  expect(trigger.due(125 * MB)).toBe(false);
  expect(trigger.due(142 * MB)).toBe(true);
});

test("after a burst a collection is due once the size stops growing a quarter of the threshold above the last one", () => {
  const trigger = new ReleaseTrigger(32 * MB, 100 * MB);
  expect(trigger.due(120 * MB)).toBe(false);
  expect(trigger.due(119 * MB)).toBe(true);
  trigger.collected(101 * MB);
  // Settled near the last collection: nothing more to give back, so an idle server is left alone.
  expect(trigger.due(102 * MB)).toBe(false);
  expect(trigger.due(102 * MB)).toBe(false);
});

test("growth counts from the lowest size seen since the last collection", () => {
  const trigger = new ReleaseTrigger(32 * MB, 200 * MB);
  expect(trigger.due(100 * MB)).toBe(false);
  expect(trigger.due(134 * MB)).toBe(true);
});
