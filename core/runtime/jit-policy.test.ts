import { expect, test } from "bun:test";
import { adaptiveJITPolicy, START_UP_JIT_POLICY } from "./jit-policy.ts";

/** A policy driven by a CPU share the test sets, recording every scale it asks for. */
function drivenPolicy() {
  const scales: number[] = [];
  let share = 0;
  let checks = 0;
  const policy = adaptiveJITPolicy({
    setJITPolicy: (scale) => scales.push(scale),
    sample: () => {
      checks++;
      return share;
    },
    intervalMs: 1,
  });
  return {
    policy,
    scales,
    setShare: (value: number) => (share = value),
    /** Resolves once `count` more checks have run. */
    async checked(count: number) {
      const until = checks + count;
      while (checks < until) await Bun.sleep(1);
    },
    get checks() {
      return checks;
    },
  };
}

test("adaptiveJITPolicy keeps the start-up scale while idle and turns to the normal policy, once, at the first busy check", async () => {
  const driven = drivenPolicy();
  await driven.checked(3);
  expect(driven.scales).toEqual([]);
  driven.setShare(0.9);
  while (driven.scales.length === 0) await Bun.sleep(1);
  const checksThen = driven.checks;
  await Bun.sleep(20);
  // Busy: nothing is watched any more.
  expect(driven.checks).toBe(checksThen);
  expect(driven.scales).toEqual([1]);
  driven.policy.stop();
});

test("idle() after a burst returns to the start-up scale and waits for load again", async () => {
  const driven = drivenPolicy();
  driven.setShare(0.9);
  while (driven.scales.length === 0) await Bun.sleep(1);
  driven.setShare(0.01);
  driven.policy.idle();
  expect(driven.scales).toEqual([1, START_UP_JIT_POLICY]);
  await driven.checked(3);
  driven.setShare(0.3);
  while (driven.scales.length === 2) await Bun.sleep(1);
  expect(driven.scales).toEqual([1, START_UP_JIT_POLICY, 1]);
  driven.policy.stop();
});

test("idle() while still at the start-up scale asks for nothing, and a stopped policy never changes the scale", async () => {
  const driven = drivenPolicy();
  driven.policy.idle();
  await driven.checked(2);
  driven.policy.stop();
  driven.setShare(0.9);
  await Bun.sleep(20);
  expect(driven.scales).toEqual([]);
});
