import { expect, test } from "bun:test";
import { ReleaseTrigger } from "./memory-release.ts";

const MB = 1_000_000;
const BUSY = 0.9;
const IDLE = 0.01;

test("during a burst a collection is due each time the process grew by the threshold since the last one", () => {
  const trigger = new ReleaseTrigger(32 * MB, 100 * MB);
  expect(trigger.due(120 * MB, BUSY)).toBeUndefined();
  expect(trigger.due(132 * MB, BUSY)).toBe("growth");
  trigger.collected("growth", 125 * MB);
  expect(trigger.due(150 * MB, BUSY)).toBeUndefined();
  expect(trigger.due(157 * MB, BUSY)).toBe("growth");
});

test("once idle after a burst a collection is due while a quarter of the threshold is left above the idle mark", () => {
  const trigger = new ReleaseTrigger(32 * MB, 100 * MB);
  expect(trigger.due(132 * MB, BUSY)).toBe("growth");
  // The burst's live data held the size up: collections during it leave the idle mark where it was.
  trigger.collected("growth", 130 * MB);
  expect(trigger.due(140 * MB, BUSY)).toBeUndefined();
  expect(trigger.due(140 * MB, IDLE)).toBe("idle");
  trigger.collected("idle", 115 * MB);
  // What is left is held, not garbage: an idle server is left alone.
  expect(trigger.due(116 * MB, IDLE)).toBeUndefined();
  expect(trigger.due(116 * MB, IDLE)).toBeUndefined();
});

test("growth counts from the lowest size seen", () => {
  const trigger = new ReleaseTrigger(32 * MB, 200 * MB);
  expect(trigger.due(100 * MB, BUSY)).toBeUndefined();
  expect(trigger.due(134 * MB, BUSY)).toBe("growth");
});
