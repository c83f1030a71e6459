import { expect, test } from "bun:test";
import { WorkQueue } from "./work-queue.ts";

test("a key added many times while waiting is reconciled once", async () => {
  const seen: string[] = [];
  let release!: () => void;
  const blocker = new Promise<void>((resolve) => (release = resolve));
  const queue = new WorkQueue(async (key) => {
    seen.push(key);
    if (key === "busy") await blocker;
  });
  queue.add("busy");
  queue.add("a");
  queue.add("a");
  queue.add("b");
  queue.add("a");
  release();
  await queue.drained();
  expect(seen).toEqual(["busy", "a", "b"]);
});

test("a key added while it is being reconciled runs again afterwards, never in parallel", async () => {
  let running = 0;
  let maxRunning = 0;
  let runs = 0;
  const queue = new WorkQueue(async () => {
    running++;
    maxRunning = Math.max(maxRunning, running);
    runs++;
    if (runs === 1) queue.add("a");
    await new Promise((resolve) => setTimeout(resolve, 5));
    running--;
  }, { workers: 4 });
  queue.add("a");
  await new Promise((resolve) => setTimeout(resolve, 50));
  await queue.drained();
  expect(runs).toBe(2);
  expect(maxRunning).toBe(1);
});

test("a failing key is retried with backoff until it succeeds", async () => {
  let attempts = 0;
  const errors: string[] = [];
  const queue = new WorkQueue(async () => {
    attempts++;
    if (attempts < 3) throw new Error(`boom ${attempts}`);
  }, { baseDelayMs: 1, onError: (_key, error) => errors.push((error as Error).message) });
  queue.add("k");
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(attempts).toBe(3);
  expect(errors).toEqual(["boom 1", "boom 2"]);
});

test("stop() drops waiting keys and pending retries", async () => {
  let attempts = 0;
  const queue = new WorkQueue(async () => {
    attempts++;
    throw new Error("always");
  }, { baseDelayMs: 5, onError: () => {} });
  queue.add("k");
  await new Promise((resolve) => setTimeout(resolve, 1));
  queue.stop();
  queue.add("other");
  await new Promise((resolve) => setTimeout(resolve, 30));
  expect(attempts).toBe(1);
});

test("addAfter() keeps the earliest of several pending delays for a key", async () => {
  const seen: number[] = [];
  const started = Date.now();
  const queue = new WorkQueue(async () => {
    seen.push(Date.now() - started);
  });
  queue.addAfter("k", 10_000);
  queue.addAfter("k", 20);
  queue.addAfter("k", 5_000);
  await new Promise((resolve) => setTimeout(resolve, 60));
  queue.stop();
  expect(seen.length).toBe(1);
  expect(seen[0]).toBeLessThan(1_000);
});
