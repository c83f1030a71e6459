/**
 * Resource quantities, the one implementation (k8s.io/apimachinery/pkg/api/resource Quantity): parsed exactly
 * (BigInt nanos, so 100m + 200m is 300m), added, subtracted and compared without floating point, and printed in
 * kube's canonical form (Quantity.String()): the largest suffix that leaves an integer, in the format its own
 * suffix chose — decimal SI (`1500m`, `2k`), binary SI (`1Gi`, `1536Mi`; values under 1Ki or not whole fall back
 * to decimal), or a decimal exponent (`12e6`). Values finer than a nano are rounded up to one, as kube does.
 */

const DECIMAL_SUFFIXES: Record<string, number> = { n: -9, u: -6, m: -3, "": 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const BINARY_SUFFIXES: Record<string, number> = { Ki: 1, Mi: 2, Gi: 3, Ti: 4, Pi: 5, Ei: 6 };
const DECIMAL_BY_EXPONENT = Object.fromEntries(Object.entries(DECIMAL_SUFFIXES).map(([suffix, exponent]) => [exponent, suffix]));
const BINARY_BY_POWER = Object.fromEntries(Object.entries(BINARY_SUFFIXES).map(([suffix, power]) => [power, suffix]));
const SHAPE = /^([+-]?)([0-9]*)(?:\.([0-9]*))?(.*)$/;
const EXPONENT_SUFFIX = /^[eE]([+-]?[0-9]+)$/;
const NANO_EXPONENT = -9;
const MAX_DECIMAL_EXPONENT = 18;

export type QuantityFormat = "DecimalSI" | "BinarySI" | "DecimalExponent";
type Format = QuantityFormat;

/** An exact quantity: its value in nano units (kube keeps nothing finer) and the format it prints in. */
export interface Quantity {
  readonly nanos: bigint;
  readonly format: QuantityFormat;
}

/** A value m × 10^e (exact), with the format its suffix asks for. */
interface Exact {
  mantissa: bigint;
  exponent: number;
  format: Format;
}

function parse(text: string): Exact | undefined {
  const match = SHAPE.exec(text.trim());
  if (!match) return undefined;
  const [, sign, whole, fraction = "", suffix] = match;
  let mantissa = BigInt(`${whole}${fraction}` || "0") * (sign === "-" ? -1n : 1n);
  let exponent = -fraction.length;
  if (suffix in DECIMAL_SUFFIXES) return { mantissa, exponent: exponent + DECIMAL_SUFFIXES[suffix], format: "DecimalSI" };
  if (suffix in BINARY_SUFFIXES) {
    mantissa *= 1024n ** BigInt(BINARY_SUFFIXES[suffix]);
    return { mantissa, exponent, format: "BinarySI" };
  }
  const power = EXPONENT_SUFFIX.exec(suffix);
  if (!power) return undefined;
  exponent += Number(power[1]);
  return { mantissa, exponent, format: "DecimalExponent" };
}

/** m × 10^e with trailing zeros of m moved into e. */
function normalize({ mantissa, exponent, format }: Exact): Exact {
  if (mantissa === 0n) return { mantissa, exponent: 0, format };
  while (mantissa % 10n === 0n) {
    mantissa /= 10n;
    exponent++;
  }
  return { mantissa, exponent, format };
}

/** Rounds values finer than a nano up (away from zero), as kube's Quantity does. */
function atLeastNanos(value: Exact): Exact {
  if (value.exponent >= NANO_EXPONENT) return value;
  const divisor = 10n ** BigInt(NANO_EXPONENT - value.exponent);
  const quotient = value.mantissa / divisor;
  const rounded = quotient * divisor === value.mantissa ? quotient : quotient + (value.mantissa > 0n ? 1n : -1n);
  return normalize({ mantissa: rounded, exponent: NANO_EXPONENT, format: value.format });
}

function decimalText(value: Exact, asExponent: boolean): string {
  // The largest exponent that is a multiple of 3 and leaves an integer mantissa.
  const exponent = Math.min(Math.floor(value.exponent / 3) * 3, MAX_DECIMAL_EXPONENT);
  const mantissa = value.mantissa * 10n ** BigInt(value.exponent - exponent);
  if (asExponent) return exponent === 0 ? `${mantissa}` : `${mantissa}e${exponent}`;
  return `${mantissa}${DECIMAL_BY_EXPONENT[exponent]}`;
}

function binaryText(value: Exact): string | undefined {
  if (value.exponent < 0) return undefined;
  const whole = value.mantissa * 10n ** BigInt(value.exponent);
  if (whole > -1024n && whole < 1024n) return undefined;
  let power = 0;
  let mantissa = whole;
  while (power < 6 && mantissa % 1024n === 0n) {
    mantissa /= 1024n;
    power++;
  }
  return `${mantissa}${power === 0 ? "" : BINARY_BY_POWER[power]}`;
}

/** The canonical text of a quantity given as text or a JSON number; undefined when it does not parse. */
export function canonicalQuantity(value: string | number): string | undefined {
  const quantity = parseQuantity(value);
  return quantity && formatQuantity(quantity);
}

/** kube's ParseQuantity (text or a JSON number), rounded up to nanos; undefined when it is not a quantity. */
export function parseQuantity(value: unknown): Quantity | undefined {
  if (typeof value !== "string" && typeof value !== "number") return undefined;
  // kube's ErrFormatWrong: an empty string is no quantity (a bare suffix such as "Mi" still reads as zero).
  if (typeof value === "string" && value.trim() === "") return undefined;
  const parsed = parse(typeof value === "number" ? numberText(value) : value);
  if (!parsed) return undefined;
  const exact = atLeastNanos(normalize(parsed));
  return { nanos: exact.mantissa * 10n ** BigInt(exact.exponent - NANO_EXPONENT), format: exact.format };
}

/** A quantity's value, or zero when it is absent or not a quantity (kube's zero Quantity). */
export function quantityOrZero(value: unknown): Quantity {
  return parseQuantity(value) ?? ZERO_QUANTITY;
}

export const ZERO_QUANTITY: Quantity = { nanos: 0n, format: "DecimalSI" };

/** A whole count (pods, services) as a quantity. */
export function countQuantity(count: number): Quantity {
  return { nanos: BigInt(count) * NANOS_PER_UNIT, format: "DecimalSI" };
}

const NANOS_PER_UNIT = 1_000_000_000n;

/** kube's Quantity.String(). */
export function formatQuantity(quantity: Quantity): string {
  const exact = normalize({ mantissa: quantity.nanos, exponent: NANO_EXPONENT, format: quantity.format });
  if (exact.format === "BinarySI") return binaryText(exact) ?? decimalText(exact, false);
  return decimalText(exact, exact.format === "DecimalExponent");
}

/** kube's Quantity.Add: the sum in the first operand's format (the second's when the first is zero). */
export function addQuantities(a: Quantity, b: Quantity): Quantity {
  return { nanos: a.nanos + b.nanos, format: a.nanos === 0n ? b.format : a.format };
}

/** kube's Quantity.Sub. */
export function subtractQuantities(a: Quantity, b: Quantity): Quantity {
  return { nanos: a.nanos - b.nanos, format: a.nanos === 0n ? b.format : a.format };
}

/** kube's Quantity.Cmp: -1, 0 or 1. */
export function compareQuantities(a: Quantity, b: Quantity): -1 | 0 | 1 {
  return a.nanos < b.nanos ? -1 : a.nanos > b.nanos ? 1 : 0;
}

/** The larger of two quantities (the first on a tie). */
export function maxQuantity(a: Quantity, b: Quantity): Quantity {
  return compareQuantities(a, b) >= 0 ? a : b;
}

/** kube's MilliValue (rounded up), for the few places kube itself works in float (ratios, scores). */
export function milliValue(quantity: Quantity): number {
  const milli = quantity.nanos / 1_000_000n;
  return Number(milli * 1_000_000n === quantity.nanos || quantity.nanos < 0n ? milli : milli + 1n);
}

/** kube's AsApproximateFloat64. */
export function approximateValue(quantity: Quantity): number {
  return Number(quantity.nanos) / 1e9;
}

/** A JSON number as kube reads it: plain digits, with an exponent where JavaScript prints one. */
function numberText(value: number): string {
  return String(value).replace("e+", "e");
}
