/**
 * Field helpers that mirror Go's zero-value tests on decoded JSON: a missing key and JSON null both
 * decode to Go's zero value, so both count as "unset". Values of the wrong JSON type are left alone
 * (the schema check and validation report them).
 */
import { isPlainObject } from "../../api/types.ts";

export type Fields = Record<string, unknown>;

/** The object under `key`, or undefined when it is absent or not an object (Go's nil pointer). */
export function objectAt(parent: unknown, key: string): Fields | undefined {
  if (!isPlainObject(parent)) return undefined;
  const value = parent[key];
  return isPlainObject(value) ? value : undefined;
}

/** The object under `key`, created empty when unset (Go's non-pointer struct field, or `if x == nil { x = &T{} }`). */
export function ensureObject(parent: Fields, key: string): Fields | undefined {
  if (isUnset(parent[key])) parent[key] = {};
  return objectAt(parent, key);
}

/** The object elements of the array under `key` (other elements are skipped). */
export function objectsAt(parent: unknown, key: string): Fields[] {
  if (!isPlainObject(parent)) return [];
  const value = parent[key];
  return Array.isArray(value) ? value.filter(isPlainObject) : [];
}

export function isUnset(value: unknown): boolean {
  return value === undefined || value === null;
}

/** Go's `if p == nil { p = &v }` for a pointer field. */
export function defaultPointer(obj: Fields, key: string, value: unknown): void {
  if (isUnset(obj[key])) obj[key] = structuredClone(value);
}

/** Go's `if s == "" { s = v }` for a plain string field. */
export function defaultString(obj: Fields, key: string, value: string): void {
  if (isUnset(obj[key]) || obj[key] === "") obj[key] = value;
}

/** Go's `if n == 0 { n = v }` for a plain integer field. */
export function defaultNumber(obj: Fields, key: string, value: number): void {
  if (isUnset(obj[key]) || obj[key] === 0) obj[key] = value;
}

/** Go's `if len(list) == 0` or `len(map) == 0`. */
export function isEmpty(value: unknown): boolean {
  if (Array.isArray(value)) return value.length === 0;
  if (isPlainObject(value)) return Object.keys(value).length === 0;
  return isUnset(value);
}
