/**
 * Warning headers as kube's warning recorder writes them (k8s.io/apiserver endpoints/filters WithWarningRecorder,
 * recorder.AddWarning): each text once; when the texts pass 4096 runes in all, every warning is cut to 256 runes
 * and no warning is added once 4096 runes are written, so a request cannot grow its response headers without bound.
 */
const TRUNCATE_AT_TOTAL_RUNES = 4 * 1024;
const TRUNCATE_ITEM_RUNES = 256;

/** unicode.IsControl: the C0 and C1 controls and DEL. */
const CONTROL_CHARACTER = /\p{Cc}/u;
/** A lone surrogate: no UTF-8 encoding exists for it (kube's utf8.ValidString check). */
const LONE_SURROGATE = /\p{Cs}/u;
const QUOTED_CHARACTER = /["\\]/g;
const NON_ASCII = /\P{ASCII}/u;

/**
 * net.NewWarningHeader with code 299 and agent "-": undefined for a text kube would not write (a control character,
 * or invalid UTF-8); otherwise the text quoted with only `"` and `\` escaped, as its UTF-8 bytes. node:http and
 * node:http2 (Bun's and Deno's) write a header string one byte per character, so the value is the "binary string" of
 * those bytes: the client reads UTF-8, as from Go's server.
 */
function headerValue(text: string): string | undefined {
  if (CONTROL_CHARACTER.test(text) || LONE_SURROGATE.test(text)) return undefined;
  const quoted = `299 - "${text.replace(QUOTED_CHARACTER, "\\$&")}"`;
  return NON_ASCII.test(quoted) ? Buffer.from(quoted, "utf8").toString("latin1") : quoted;
}

function truncated(text: string): { text: string; runes: number } {
  const runes = Array.from(text);
  if (runes.length <= TRUNCATE_ITEM_RUNES) return { text, runes: runes.length };
  return { text: runes.slice(0, TRUNCATE_ITEM_RUNES).join(""), runes: TRUNCATE_ITEM_RUNES };
}

/** The Warning header values for `texts`, in order: recorder.AddWarning called with each. */
export function warningHeaderValues(texts: Iterable<string>): string[] {
  const recorded = new Set<string>();
  const ordered: string[] = [];
  let headers: string[] = [];
  let written = 0;
  let truncating = false;
  for (const text of texts) {
    if (text.length === 0) continue;
    if (truncating && written >= TRUNCATE_AT_TOTAL_RUNES) break;
    if (recorded.has(text)) continue;
    recorded.add(text);
    ordered.push(text);
    const item = truncating ? truncated(text) : { text, runes: Array.from(text).length };
    const header = headerValue(item.text);
    if (header === undefined) continue;
    if (truncating || written + item.runes <= TRUNCATE_AT_TOTAL_RUNES) {
      written += item.runes;
      headers.push(header);
      continue;
    }
    // Over the limit: from now on truncate, replaying what was recorded so far cut to size.
    truncating = true;
    written = 0;
    headers = [];
    for (const earlier of ordered) {
      const cut = truncated(earlier);
      const value = headerValue(cut.text);
      if (value === undefined) continue;
      written += cut.runes;
      headers.push(value);
    }
  }
  return headers;
}

/** Adds the Warning headers kube's recorder would write (a copy, since proxied answers have immutable headers). */
export function withWarnings(response: Response, warnings: string[]): Response {
  if (warnings.length === 0) return response;
  const copy = new Response(response.body, response);
  for (const value of warningHeaderValues(warnings)) copy.headers.append("Warning", value);
  return copy;
}
