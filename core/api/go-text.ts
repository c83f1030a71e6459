/**
 * Text helpers that reproduce how Go prints values inside kube error messages
 * (strconv.Quote, `%#v` of a []string, encoding/json's quoteChar, len() in bytes).
 */

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

/** strconv.Quote: double-quoted with Go escapes (printable non-ASCII kept as is). */
export function goQuote(text: string): string {
  let out = '"';
  for (let i = 0; i < text.length; i++) out += escapeCodeUnit(text.charCodeAt(i));
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

/** Go's len(): the UTF-8 byte length of a string. */
export function byteLength(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) continue;
    if (code < 0x800) bytes += 1;
    else if (code >= 0xd800 && code <= 0xdbff) {
      bytes += 2;
      i++;
    } else bytes += 2;
  }
  return bytes;
}

/** An aggregated error list as k8s.io/apimachinery/pkg/util/errors prints it: one message bare, several deduplicated in brackets. */
export function aggregateMessage(messages: readonly string[]): string {
  const unique = [...new Set(messages)];
  return unique.length === 1 ? unique[0] : `[${unique.join(", ")}]`;
}
