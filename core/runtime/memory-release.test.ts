import { expect, test } from "bun:test";
import { ReleaseTrigger } from "./memory-release.ts";

const MB = 1_000_000;
const BUSY = 0.9;
const IDLE = 0.01;

test("during a burst a collection is due each time the process grew by the threshold since the last one", () => {
  const trigger = new ReleaseTrigger(32 * MB, 40 * MB);
  expect(trigger.due(60 * MB, BUSY)).toBeUndefined();
  expect(trigger.due(72 * MB, BUSY)).toBe("growth");
  trigger.collected("growth", 50 * MB);
  expect(trigger.due(80 * MB, BUSY)).toBeUndefined();
  expect(trigger.due(82 * MB, BUSY)).toBe("growth");
});

test("a larger process grows by half its size after the last collection before the next, as Go's pacer (GOGC) scales its goal", () => {
  const trigger = new ReleaseTrigger(32 * MB, 40 * MB);
  expect(trigger.due(72 * MB, BUSY)).toBe("growth");
  trigger.collected("growth", 110 * MB);
  expect(trigger.due(150 * MB, BUSY)).toBeUndefined();
  expect(trigger.due(165 * MB, BUSY)).toBe("growth");
  trigger.collected("growth", 200 * MB);
  expect(trigger.due(299 * MB, BUSY)).toBeUndefined();
  expect(trigger.due(300 * MB, BUSY)).toBe("growth");
});

test("once idle after a burst a collection is due while a quarter of the threshold is left above the idle mark", () => {
  const trigger = new ReleaseTrigger(32 * MB, 40 * MB);
  expect(trigger.due(72 * MB, BUSY)).toBe("growth");
  // The burst's live data held the size up: collections during it leave the idle mark where it was.
  trigger.collected("growth", 70 * MB);
  expect(trigger.due(80 * MB, BUSY)).toBeUndefined();
  expect(trigger.due(80 * MB, IDLE)).toBe("idle");
  trigger.collected("idle", 55 * MB);
  // What is left is held, not garbage: an idle server is left alone.
  expect(trigger.due(56 * MB, IDLE)).toBeUndefined();
  expect(trigger.due(56 * MB, IDLE)).toBeUndefined();
});

test("growth counts from the lowest size seen", () => {
  const trigger = new ReleaseTrigger(32 * MB, 200 * MB);
  expect(trigger.due(50 * MB, BUSY)).toBeUndefined();
  expect(trigger.due(82 * MB, BUSY)).toBe("growth");
});
