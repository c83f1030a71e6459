import { expect, test } from "bun:test";
import { allocateConcurrency, allocationItem, levelLimits, newSeatDemandStats, updateSeatDemandStats } from "./borrowing.ts";

test("finishQueueSetReconfigsLocked: nominal = ceil(serverCL × shares ÷ sum), lower = nominal − round(lendable%), upper = nominal + round(borrowing%) or + serverCL", () => {
  // 600 × 100 ÷ 245 = 244.9 → 245; 90% of 245 = 220.5 rounds to 221; unset borrowing allows the whole server limit.
  expect(levelLimits(600, 100, 245, 90, undefined)).toEqual({ nominal: 245, lower: 24, upper: 845, initial: 135 });
  expect(levelLimits(600, 20, 245, 0, 50)).toEqual({ nominal: 49, lower: 49, upper: 74, initial: 49 });
});

test("computeConcurrencyAllocation: when no bound binds, allocations are one fair fraction of the targets", () => {
  const { allocations, fairFraction } = allocateConcurrency(10, [{ lower: 0, upper: 100, target: 2 }, { lower: 0, upper: 100, target: 3 }]);
  expect(fairFraction).toBe(2);
  expect(allocations).toEqual([4, 6]);
});

test("computeConcurrencyAllocation: a level at its upper bound gives the rest to the others", () => {
  const { allocations, fairFraction } = allocateConcurrency(10, [{ lower: 0, upper: 3, target: 5 }, { lower: 0, upper: 100, target: 5 }]);
  expect(fairFraction).toBeCloseTo(1.4, 12);
  expect(allocations[0]).toBe(3);
  expect(allocations[1]).toBeCloseTo(7, 12);
});

test("computeConcurrencyAllocation: lower bounds that use up the sum are the answer; impossible bounds are errors", () => {
  expect(allocateConcurrency(10, [{ lower: 6, upper: 10, target: 6 }, { lower: 4, upper: 10, target: 4 }])).toEqual({
    allocations: [6, 4],
    fairFraction: 1,
  });
  expect(() => allocateConcurrency(10, [{ lower: 6, upper: 10, target: 6 }, { lower: 6, upper: 10, target: 6 }])).toThrow(
    "lower bounds sum to 12, which is higher than the required sum of 10",
  );
  expect(() => allocateConcurrency(10, [{ lower: 1, upper: 2, target: 2 }])).toThrow(
    "upper bounds sum to 2, which is lower than the required sum of 10",
  );
  expect(() => allocateConcurrency(10, [{ lower: 3, upper: 20, target: 2 }])).toThrow("target 0 is 2, which is below its lower bound of 3");
});

test("updateBorrowingLocked: an idle level lends down to its lower limit and a busy one borrows it", () => {
  // Two levels of nominal 10 lending half, in a server of 20 seats. The idle one's demand never rose; the busy one
  // wanted 20 seats all period.
  const limits = levelLimits(20, 1, 2, 50, undefined);
  expect(limits).toEqual({ nominal: 10, lower: 5, upper: 30, initial: 8 });
  const idle = newSeatDemandStats();
  updateSeatDemandStats(idle, { durationSeconds: 10, average: 0, deviation: 0, min: 0, max: 0 });
  const busy = newSeatDemandStats();
  updateSeatDemandStats(busy, { durationSeconds: 10, average: 20, deviation: 0, min: 20, max: 20 });
  const items = [allocationItem(limits, idle), allocationItem(limits, busy)];
  expect(items).toEqual([{ lower: 5, upper: 30, target: 5 }, { lower: 10, upper: 30, target: 20 }]);
  // The fair fraction 0.75 gives the busy level 15 seats; the idle one keeps its lower limit of 5.
  const { allocations, fairFraction } = allocateConcurrency(20, items);
  expect(fairFraction).toBeCloseTo(0.75, 12);
  expect(allocations.map((allocation) => Math.round(allocation))).toEqual([5, 15]);
});

test("seatDemandStats.update: the smoothed demand jumps up to the envelope and decays by 0.977 per period", () => {
  const stats = newSeatDemandStats();
  updateSeatDemandStats(stats, { durationSeconds: 10, average: 8, deviation: 2, min: 5, max: 12 });
  expect(stats).toEqual({ average: 8, stdDev: 2, highWatermark: 12, smoothed: 10 });
  updateSeatDemandStats(stats, { durationSeconds: 10, average: 2, deviation: NaN, min: 2, max: 2 });
  expect(stats.stdDev).toBe(0);
  expect(stats.smoothed).toBeCloseTo(0.977 * 10 + 0.023 * 2, 12);
  // No time passed: only the high watermark is taken.
  updateSeatDemandStats(stats, { durationSeconds: 0, average: NaN, deviation: NaN, min: 7, max: 7 });
  expect(stats.highWatermark).toBe(7);
  expect(stats.average).toBe(2);
});
