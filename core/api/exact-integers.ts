/**
 * Integers beyond JavaScript's exact range (|n| > 2^53 - 1) kept exact, as Go keeps an int64 exact: such a JSON
 * integer is read as a BigInt and written back digit for digit. BigInt survives structuredClone and deep
 * comparison; JSON.stringify writes it through BigInt.prototype.toJSON below. Only texts that may hold such a
 * number (a run of 16 digits) take the slower exact parse, so ordinary objects cost one regular-expression test.
 */
import { readJSON } from "./_json-scan.ts";

declare global {
  interface BigInt {
    toJSON(): unknown;
  }
  interface JSON {
    rawJSON(text: string): unknown;
  }
}

// Written as the bare digits, as Go's encoding/json writes an int64.
BigInt.prototype.toJSON = function (this: bigint) {
  return JSON.rawJSON(this.toString());
};

/** 2^53 has 16 digits: a text without a run of 16 digits holds no integer JSON.parse would round. */
const SIXTEEN_DIGITS = /[0-9]{16}/;

export function mayHoldInexactInteger(text: string): boolean {
  return SIXTEEN_DIGITS.test(text);
}

/** JSON.parse that keeps integers beyond 2^53 exact (as BigInt). */
export function parseJSONExact(text: string): unknown {
  return mayHoldInexactInteger(text) ? readJSON(text).value : JSON.parse(text);
}

/** Whether a decoded JSON value is an integer, exact or BigInt. */
export function isJSONInteger(value: unknown): value is number | bigint {
  return typeof value === "bigint" || (typeof value === "number" && Number.isInteger(value));
}
