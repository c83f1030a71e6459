/**
 * kube's canonical form of a resource quantity (k8s.io/apimachinery/pkg/api/resource Quantity.String()): the value is
 * kept exactly and printed with the largest suffix that leaves an integer, in the format its own suffix chose —
 * decimal SI (`1500m`, `2k`), binary SI (`1Gi`, `1536Mi`; values under 1Ki or not whole fall back to decimal), or a
 * decimal exponent (`12e6`). Values finer than a nano are rounded up to one, as kube does.
 */

const DECIMAL_SUFFIXES: Record<string, number> = { n: -9, u: -6, m: -3, "": 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const BINARY_SUFFIXES: Record<string, number> = { Ki: 1, Mi: 2, Gi: 3, Ti: 4, Pi: 5, Ei: 6 };
const DECIMAL_BY_EXPONENT = Object.fromEntries(Object.entries(DECIMAL_SUFFIXES).map(([suffix, exponent]) => [exponent, suffix]));
const BINARY_BY_POWER = Object.fromEntries(Object.entries(BINARY_SUFFIXES).map(([suffix, power]) => [power, suffix]));
const SHAPE = /^([+-]?)([0-9]*)(?:\.([0-9]*))?(.*)$/;
const EXPONENT_SUFFIX = /^[eE]([+-]?[0-9]+)$/;
const NANO_EXPONENT = -9;
const MAX_DECIMAL_EXPONENT = 18;

type Format = "DecimalSI" | "BinarySI" | "DecimalExponent";

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
  const parsed = parse(typeof value === "number" ? numberText(value) : value);
  if (!parsed) return undefined;
  const exact = atLeastNanos(normalize(parsed));
  if (exact.format === "BinarySI") return binaryText(exact) ?? decimalText(exact, false);
  return decimalText(exact, exact.format === "DecimalExponent");
}

/** A JSON number as kube reads it: plain digits, with an exponent where JavaScript prints one. */
function numberText(value: number): string {
  return String(value).replace("e+", "e");
}
