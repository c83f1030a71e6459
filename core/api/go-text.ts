/**
 * Text helpers that reproduce how Go prints values inside kube error messages
 * (strconv.Quote, `%#v` of a []string, encoding/json's quoteChar, len() in bytes).
 */
import { Buffer } from "node:buffer";

const SHORT_ESCAPES: Record<number, string> = {
  0x07: "\\a",
  0x08: "\\b",
  0x09: "\\t",
  0x0a: "\\n",
  0x0b: "\\v",
  0x0c: "\\f",
  0x0d: "\\r",
  0x22: '\\"',
  0x5c: "\\\\",
};

function escapeCodeUnit(code: number): string {
  const short = SHORT_ESCAPES[code];
  if (short !== undefined) return short;
  if (code < 0x20 || code === 0x7f) return `\\x${code.toString(16).padStart(2, "0")}`;
  return String.fromCharCode(code);
}

/** unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space. */
export const GO_PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

/** strconv.Quote's escape of a non-ASCII character: kept when printable, else \u or \U (a lone surrogate is U+FFFD). */
function escapeNonAscii(char: string): string {
  const codePoint = char.codePointAt(0)!;
  if (codePoint >= 0xd800 && codePoint <= 0xdfff) return "\ufffd";
  if (GO_PRINTABLE.test(char)) return char;
  const hex = codePoint.toString(16);
  return codePoint > 0xffff ? `\\U${hex.padStart(8, "0")}` : `\\u${hex.padStart(4, "0")}`;
}

/** strconv.Quote: double-quoted with Go escapes (printable non-ASCII kept as is). */
export function goQuote(text: string): string {
  let out = '"';
  for (const char of text) out += char.charCodeAt(0) < 0x80 ? escapeCodeUnit(char.charCodeAt(0)) : escapeNonAscii(char);
  return `${out}"`;
}

/** `%#v` of a []string; an empty list prints as the nil slice kube builds with append([]string(nil), ...). */
export function goStringSlice(values: readonly string[]): string {
  return values.length === 0 ? "[]string(nil)" : `[]string{${values.map(goQuote).join(", ")}}`;
}

/** encoding/json's quoteChar of the first byte of a character (non-ASCII shows its lead UTF-8 byte). */
export function goQuoteByte(char: string): string {
  const code = char.charCodeAt(0);
  if (char === "'") return "'\\''";
  if (char === '"') return "'\"'";
  const byte = code < 0x80 ? code : new TextEncoder().encode(char)[0];
  if (byte >= 0x80) return `'${String.fromCharCode(byte)}'`;
  return `'${escapeCodeUnit(byte)}'`;
}

/** Go's len(): the UTF-8 byte length of a string (a lone surrogate counts as U+FFFD, as Go's decoding gives it). */
export function byteLength(text: string): number {
  return Buffer.byteLength(text, "utf8");
}

/**
 * Whether Go's len() of `text` is over `max`, counted only when the UTF-16 length cannot tell: a code unit is 1 to 3
 * UTF-8 bytes (a surrogate pair 4 for 2), so a text of more than `max` units is over and one of at most `max / 3`
 * is not. Names and label values are short, and this spares them the count.
 */
export function exceedsByteLength(text: string, max: number): boolean {
  if (text.length > max) return true;
  return text.length * 3 > max && byteLength(text) > max;
}

/** An aggregated error list as k8s.io/apimachinery/pkg/util/errors prints it: one message bare, several deduplicated in brackets. */
export function aggregateMessage(messages: readonly string[]): string {
  const unique = [...new Set(messages)];
  return unique.length === 1 ? unique[0] : `[${unique.join(", ")}]`;
}
