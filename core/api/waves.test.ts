import { expect, test } from "bun:test";
import { setImmediate } from "node:timers";
import { joinWave } from "./waves.ts";

test("joinWave() resumes every caller of one event-loop iteration together, in order, after the iteration's own work", async () => {
  const order: string[] = [];
  const callers = ["a", "b", "c"].map(async (name) => {
    await joinWave();
    order.push(`${name} resumed`);
    await Promise.resolve();
    order.push(`${name} next step`);
  });
  queueMicrotask(() => order.push("microtask"));
  await Promise.all(callers);
  // Each step of the callers runs for all of them before the next step of any: they go on in lockstep.
  expect(order).toEqual(["microtask", "a resumed", "b resumed", "c resumed", "a next step", "b next step", "c next step"]);
});

test("joinWave() of a later iteration waits for a wave of its own", async () => {
  const first = joinWave();
  expect(joinWave()).toBe(first);
  await first;
  const second = joinWave();
  expect(second).not.toBe(first);
  let resumed = false;
  void second.then(() => (resumed = true));
  await Promise.resolve();
  expect(resumed).toBe(false);
  await new Promise((resolve) => setImmediate(resolve));
  expect(resumed).toBe(true);
});
