/**
 * How Go prints values that encoding/json decoded into interface{} (maps, slices, strings, int64 and float64
 * as kube's PreserveInts decoding gives them): `%v`, json.Marshal and reflect.TypeOf, as kube's error messages
 * show them.
 */
import { isPlainObject } from "./types.ts";

/** Go's %v of a float64: strconv's shortest 'g', in exponent form below 1e-4 or from 1e6 on (exponent at least 2 digits). */
function goFloat(value: number): string {
  const exponent = Math.floor(Math.log10(Math.abs(value)));
  if (exponent >= -4 && exponent < 6) return String(value);
  const [mantissa, power] = value.toExponential().split("e");
  const sign = power.startsWith("-") ? "-" : "+";
  return `${mantissa}e${sign}${power.replace(/^[+-]/, "").padStart(2, "0")}`;
}

/** Go's %v (and %+v) of a decoded value: maps with sorted keys, slices space-separated, bare strings. */
export function goPrintValue(value: unknown): string {
  if (value === null || value === undefined) return "<nil>";
  if (typeof value === "string") return value;
  if (typeof value === "number") return Number.isInteger(value) ? String(value) : goFloat(value);
  if (typeof value === "boolean") return String(value);
  if (Array.isArray(value)) return `[${value.map(goPrintValue).join(" ")}]`;
  if (isPlainObject(value)) {
    const entries = Object.keys(value).sort().map((key) => `${key}:${goPrintValue(value[key])}`);
    return `map[${entries.join(" ")}]`;
  }
  return String(value);
}

/** Go's %s of a decoded value: strings bare, other scalars in fmt's bad-verb form `%!s(int64=1)`. */
export function goSprintS(value: unknown): string {
  if (value === null || value === undefined) return "%!s(<nil>)";
  if (typeof value === "string") return value;
  if (Array.isArray(value)) return `[${value.map(goSprintS).join(" ")}]`;
  if (isPlainObject(value)) return `map[${Object.keys(value).sort().map((key) => `${key}:${goSprintS(value[key])}`).join(" ")}]`;
  return `%!s(${goTypeName(value)}=${goPrintValue(value)})`;
}

/** reflect.TypeOf(v) printed with %s; a nil interface has no type and prints as fmt's bad-verb form. */
export function goTypeName(value: unknown): string {
  if (value === null || value === undefined) return "%!s(<nil>)";
  if (Array.isArray(value)) return "[]interface {}";
  if (isPlainObject(value)) return "map[string]interface {}";
  if (typeof value === "number") return Number.isInteger(value) ? "int64" : "float64";
  return typeof value === "boolean" ? "bool" : "string";
}

/** How Go's encoding/json names a JSON value in its unmarshal errors (UnmarshalTypeError's Value). */
export function goJsonKind(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (isPlainObject(value)) return "object";
  if (typeof value === "bigint") return "number";
  return typeof value === "boolean" ? "bool" : typeof value;
}

/** encoding/json's UnmarshalTypeError for a value decoded into a Go value of `goType`. */
export function goCannotUnmarshal(value: unknown, goType: string): string {
  return `json: cannot unmarshal ${goJsonKind(value)} into Go value of type ${goType}`;
}

const GO_HTML_ESCAPES: Record<string, string> = {
  "<": "\\u003c",
  ">": "\\u003e",
  "&": "\\u0026",
  "\u2028": "\\u2028",
  "\u2029": "\\u2029",
};

/** Go's json.Marshal of a map[string]interface{}: compact, sorted keys, HTML characters escaped. */
export function goMarshal(value: unknown): string {
  const sorted = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sorted);
    if (!isPlainObject(v)) return v;
    return Object.fromEntries(Object.keys(v).sort().map((key) => [key, sorted(v[key])]));
  };
  return JSON.stringify(sorted(value)).replace(/[<>&\u2028\u2029]/g, (c) => GO_HTML_ESCAPES[c]);
}

/** Go's json.MarshalIndent(v, "", "  ") of a struct: its fields in their own order, HTML characters escaped, no newline after. */
export function goMarshalIndent(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(/[<>&\u2028\u2029]/g, (c) => GO_HTML_ESCAPES[c]);
}
