/**
 * cel-go's SizeEstimate and CostEstimate (checker/cost.go): [min, max] ranges of unsigned 64-bit integers whose
 * sums and products stop at math.MaxUint64 instead of wrapping.
 */

export interface Range {
  min: bigint;
  max: bigint;
}

export const MAX_UINT64 = (1n << 64n) - 1n;
/** common.StringTraversalCostFactor */
export const STRING_TRAVERSAL_COST_FACTOR = 0.1;
/** common.RegexStringLengthCostFactor */
export const REGEX_STRING_LENGTH_COST_FACTOR = 0.25;

export function fixed(value: bigint | number): Range {
  return { min: BigInt(value), max: BigInt(value) };
}

export const UNKNOWN_SIZE: Range = { min: 0n, max: MAX_UINT64 };
export const ZERO: Range = fixed(0);

/** addUint64NoOverflow */
function addCapped(x: bigint, y: bigint): bigint {
  const sum = x + y;
  return sum > MAX_UINT64 ? MAX_UINT64 : sum;
}

/** multiplyUint64NoOverflow */
function multiplyCapped(x: bigint, y: bigint): bigint {
  const product = x * y;
  return product > MAX_UINT64 ? MAX_UINT64 : product;
}

/** multiplyByCostFactor: the float64 product rounded up, MaxUint64 from 2^64 on. */
function byFactor(x: bigint, factor: number): bigint {
  const product = Math.ceil(Number(x) * factor);
  return product >= 2 ** 64 ? MAX_UINT64 : BigInt(product);
}

export function add(a: Range, b: Range): Range {
  return { min: addCapped(a.min, b.min), max: addCapped(a.max, b.max) };
}

export function multiply(a: Range, b: Range): Range {
  return { min: multiplyCapped(a.min, b.min), max: multiplyCapped(a.max, b.max) };
}

export function multiplyByCostFactor(a: Range, factor: number): Range {
  return { min: byFactor(a.min, factor), max: byFactor(a.max, factor) };
}

/** The range covering both. */
export function union(a: Range, b: Range): Range {
  return { min: a.min < b.min ? a.min : b.min, max: a.max > b.max ? a.max : b.max };
}

export function sum(ranges: Range[]): Range {
  return ranges.reduce(add, ZERO);
}
