import { expect, test } from "bun:test";
import { Integrator } from "./integrator.ts";

test("the integrator answers the time-weighted average, deviation and extremes, and restarts at the current value (kube's Integrator)", () => {
  let now = 0;
  const integrator = new Integrator(() => now);
  integrator.set(2);
  now = 1000;
  integrator.set(4);
  now = 3000;
  // 2 for 1 s, then 4 for 2 s: mean 10/3, mean square 12.
  const period = integrator.reset();
  expect(period.durationSeconds).toBe(3);
  expect(period.average).toBeCloseTo(10 / 3, 12);
  expect(period.deviation).toBeCloseTo(Math.sqrt(12 - 100 / 9), 12);
  expect([period.min, period.max]).toEqual([0, 4]);
  now = 4000;
  const next = integrator.reset();
  expect([next.average, next.deviation, next.min, next.max]).toEqual([4, 0, 4, 4]);
  expect(Number.isNaN(integrator.reset().average)).toBe(true);
});
