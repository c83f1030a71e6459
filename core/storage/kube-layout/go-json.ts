/**
 * JSON text as kube's JSON serializer writes a stored object (k8s.io/apimachinery runtime/serializer/json
 * Serializer.Encode → encoding/json's Encoder.Encode): compact, a trailing newline, and Go's string escapes with
 * HTML escaping on: `<`, `>`, `&`, U+2028 and U+2029 as \u escapes, control characters other than \n, \r and \t as
 * \u00XX (Go 1.19, which built kube 1.26, had no \b and \f escapes), and invalid UTF-16 (lone surrogates) as U+FFFD.
 */
import { Buffer } from "node:buffer";
// Installs BigInt.prototype.toJSON: int64s beyond 2^53 (parsed as BigInt) are written digit for digit, as Go does.
import "../../api/exact-integers.ts";

const HTML_AND_SEPARATORS = /[<>&\u2028\u2029]/g;
const ESCAPE = /\\(u[0-9a-f]{4}|.)/g;
const LONE_SURROGATE_ESCAPE = /^ud[89a-f]/;

function goEscape(char: string): string {
  return `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`;
}

/** JSON.stringify's escapes rewritten to Go's; pairs are matched left to right, so an escaped backslash stays one. */
function goEscapes(escape: string, body: string): string {
  if (body === "b") return "\\u0008";
  if (body === "f") return "\\u000c";
  if (LONE_SURROGATE_ESCAPE.test(body)) return "\\ufffd";
  return escape;
}

/** Go orders map keys by their UTF-8 bytes (JavaScript's string order differs above U+FFFF, and objects put integer-like keys first). */
export function byUtf8(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}

/**
 * A copy of a JSON value with every object's keys in Go's map order; protobufjs writes map entries in key order, so
 * this gives gogo's sorted map entries (integer-like keys still lead, as JavaScript objects keep them first).
 */
export function withSortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withSortedKeys);
  if (value === null || typeof value !== "object") return value;
  // fromEntries defines each member, so a "__proto__" key (a valid ConfigMap data key) stays data.
  return Object.fromEntries(Object.keys(value).sort(byUtf8).map((key) => [key, withSortedKeys((value as Record<string, unknown>)[key])]));
}

/** Compact JSON text with every object's keys sorted, as encoding/json writes a map[string]interface{}. */
function sortedJson(value: unknown): string | undefined {
  if (Array.isArray(value)) return `[${value.map((item) => sortedJson(item) ?? "null").join(",")}]`;
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  const members: string[] = [];
  for (const key of Object.keys(value).sort(byUtf8)) {
    const text = sortedJson((value as Record<string, unknown>)[key]);
    if (text !== undefined) members.push(`${JSON.stringify(key)}:${text}`);
  }
  return `{${members.join(",")}}`;
}

/**
 * `value` as Go's encoding/json writes it, with the Encoder's newline: keys in the order the value has them, or
 * sorted for an unstructured object (a custom resource, which kube holds as nested maps).
 */
export function goJsonLine(value: unknown, options: { sortKeys: boolean }): string {
  const text = options.sortKeys ? sortedJson(value)! : JSON.stringify(value);
  // Outside strings JSON text holds none of these characters, so a replace over the whole text only touches strings.
  return `${text.replace(ESCAPE, goEscapes).replace(HTML_AND_SEPARATORS, goEscape)}\n`;
}
