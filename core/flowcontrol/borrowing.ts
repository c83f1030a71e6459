/**
 * Concurrency borrowing between priority levels, as kube 1.26 introduced it (apf_controller.go
 * finishQueueSetReconfigsLocked, updateBorrowingLocked and seatDemandStats.update; conc_alloc.go
 * computeConcurrencyAllocation): each limited level has a nominal limit, may lend `lendablePercent` of it and borrow
 * up to `borrowingLimitPercent` of it (unbounded when unset); every adjustment period the levels' current limits are
 * re-divided, in proportion to each level's smoothed seat demand and within those bounds, so that they sum to the
 * nominal limits' sum.
 */
import type { IntegratorResults } from "./integrator.ts";

/** kube's borrowingAdjustmentPeriod. */
export const BORROWING_ADJUSTMENT_PERIOD_MS = 10_000;
/** kube's seatDemandSmoothingCoefficient: a half-life of 5 minutes at one adjustment per 10 s. */
const SEAT_DEMAND_SMOOTHING = 0.977;
/** kube's MinTarget and epsilon of computeConcurrencyAllocation. */
const MIN_TARGET = 0.001;
const EPSILON = 0.0000001;

/** A limited level's configured limits (kube's nominalCL, minCL and maxCL). */
export interface LevelLimits {
  nominal: number;
  lower: number;
  upper: number;
  /** The concurrency limit a newly created level starts with, before the first adjustment. */
  initial: number;
}

/**
 * kube's finishQueueSetReconfigsLocked: NominalCL = ceil(serverCL × shares ÷ sum of shares), LendableCL =
 * round(NominalCL × lendablePercent ÷ 100), BorrowingCL = round(NominalCL × borrowingLimitPercent ÷ 100) or the
 * whole server limit when unset; a new level starts at NominalCL − LendableCL/2 (Go's integer division).
 */
export function levelLimits(
  serverLimit: number,
  shares: number,
  shareSum: number,
  lendablePercent: number | undefined,
  borrowingLimitPercent: number | undefined,
): LevelLimits {
  const nominal = Math.ceil((serverLimit * shares) / Math.max(shareSum, 1));
  // The values are never negative, where Math.round and Go's math.Round agree.
  const lendable = lendablePercent === undefined ? 0 : Math.round((nominal * lendablePercent) / 100);
  const borrowing = borrowingLimitPercent === undefined ? serverLimit : Math.round((nominal * borrowingLimitPercent) / 100);
  return { nominal, lower: nominal - lendable, upper: nominal + borrowing, initial: nominal - Math.trunc(lendable / 2) };
}

/** kube's seatDemandStats. */
export interface SeatDemandStats {
  average: number;
  stdDev: number;
  highWatermark: number;
  smoothed: number;
}

export function newSeatDemandStats(): SeatDemandStats {
  return { average: 0, stdDev: 0, highWatermark: 0, smoothed: 0 };
}

/**
 * kube's seatDemandStats.update: the period's maximum becomes the high watermark; when time passed, the envelope
 * (average plus standard deviation) replaces the smoothed demand if higher, else pulls it down slowly.
 */
export function updateSeatDemandStats(stats: SeatDemandStats, period: IntegratorResults): void {
  stats.highWatermark = period.max;
  if (period.durationSeconds <= 0) return;
  const deviation = Number.isNaN(period.deviation) ? 0 : period.deviation;
  stats.average = period.average;
  stats.stdDev = deviation;
  const envelope = period.average + deviation;
  stats.smoothed = Math.max(envelope, SEAT_DEMAND_SMOOTHING * stats.smoothed + (1 - SEAT_DEMAND_SMOOTHING) * envelope);
}

/**
 * One level's allocation problem (kube's updateBorrowingLocked): it gets at least the lesser of its demand's high
 * watermark and its nominal limit (never under its lower limit), at most its upper limit, and aims at its smoothed
 * demand.
 */
export interface AllocationItem {
  lower: number;
  upper: number;
  target: number;
}

export function allocationItem(limits: LevelLimits, stats: SeatDemandStats): AllocationItem {
  const lower = Math.max(limits.lower, Math.min(limits.nominal, stats.highWatermark));
  return { lower, upper: limits.upper, target: Math.max(lower, stats.smoothed) };
}

/**
 * kube's computeConcurrencyAllocation: the allocations, summing to `requiredSum`, of the form
 * clamp(fairFraction × target, lower, upper) — one fraction for all, found where that sum, which grows piecewise
 * linearly with the fraction, meets the required sum. Throws kube's messages when no such allocation exists.
 */
export function allocateConcurrency(
  requiredSum: number,
  items: readonly AllocationItem[],
): { allocations: number[]; fairFraction: number } {
  if (requiredSum < 0) throw new Error("negative sums are not supported");
  const targets = items.map((item, index) => {
    if (item.lower < 0) throw new Error(`lower bound ${index} is ${item.lower} but negative lower bounds are not allowed`);
    if (item.target < item.lower) throw new Error(`target ${index} is ${item.target}, which is below its lower bound of ${item.lower}`);
    if (item.upper < item.lower) {
      throw new Error(`upper bound ${index} is ${item.upper} but should not be less than the lower bound ${item.lower}`);
    }
    // A zero target would make every fraction alike: kube lifts it to a small positive one.
    return Math.max(item.target, MIN_TARGET);
  });
  const lowSum = items.reduce((sum, item) => sum + item.lower, 0);
  const highSum = items.reduce((sum, item) => sum + item.upper, 0);
  if (lowSum - requiredSum > EPSILON) {
    throw new Error(`lower bounds sum to ${lowSum}, which is higher than the required sum of ${requiredSum}`);
  }
  if (requiredSum - highSum > EPSILON) {
    throw new Error(`upper bounds sum to ${highSum}, which is lower than the required sum of ${requiredSum}`);
  }
  const lowerFractions = items.map((item, index) => item.lower / targets[index]!);
  const upperFractions = items.map((item, index) => item.upper / targets[index]!);
  if (requiredSum === 0) return { allocations: items.map(() => 0), fairFraction: 0 };
  // No room to move: every level sits at a bound.
  if (lowSum - requiredSum > -EPSILON) return { allocations: items.map((item) => item.lower), fairFraction: Math.min(...lowerFractions) };
  if (requiredSum - highSum > -EPSILON) return { allocations: items.map((item) => item.upper), fairFraction: Math.max(...upperFractions) };
  const allocationsAt = (fraction: number) =>
    items.map((item, index) => Math.max(item.lower, Math.min(item.upper, fraction * targets[index]!)));
  const sumAt = (fraction: number) => allocationsAt(fraction).reduce((sum, allocation) => sum + allocation, 0);
  // Between consecutive bounds (as fractions) the sum is linear; find the stretch where it reaches the required sum.
  const breakpoints = [...new Set([...lowerFractions, ...upperFractions])].sort((a, b) => a - b);
  let previous = breakpoints[0]!;
  let previousSum = sumAt(previous);
  for (const breakpoint of breakpoints.slice(1)) {
    const sum = sumAt(breakpoint);
    if (sum >= requiredSum) {
      const fairFraction = sum === previousSum
        ? breakpoint
        : previous + ((requiredSum - previousSum) * (breakpoint - previous)) / (sum - previousSum);
      return { allocations: allocationsAt(fairFraction), fairFraction };
    }
    previous = breakpoint;
    previousSum = sum;
  }
  throw new Error("impossible: ran out of bounds to consider in bound-constrained problem");
}
