/**
 * Warning headers as kube's warning recorder writes them (k8s.io/apiserver endpoints/filters WithWarningRecorder,
 * recorder.AddWarning): each text once; when the texts pass 4096 runes in all, every warning is cut to 256 runes
 * and no warning is added once 4096 runes are written, so a request cannot grow its response headers without bound.
 */
const TRUNCATE_AT_TOTAL_RUNES = 4 * 1024;
const TRUNCATE_ITEM_RUNES = 256;

/** unicode.IsControl: the C0 and C1 controls and DEL. */
const CONTROL_CHARACTER = /\p{Cc}/u;
/**
 * Past U+00FF: a Response's header holds no such character, and Bun's node:http refuses one in a header, so such a
 * warning is not written (kube would send its UTF-8) rather than failing the whole answer.
 */
const BEYOND_LATIN1 = /[\u0100-\u{10ffff}]/u;
const QUOTED_CHARACTER = /["\\]/g;

/**
 * net.NewWarningHeader with code 299 and agent "-": undefined for a text that holds a control character (kube records
 * it but writes no header) or one the runtime cannot write, a lone surrogate (invalid UTF-8 in kube) among them; otherwise the text quoted with
 * only `"` and `\` escaped. Bun's node:http writes the text as UTF-8, as Go's server writes kube's string.
 */
function headerValue(text: string): string | undefined {
  if (CONTROL_CHARACTER.test(text) || BEYOND_LATIN1.test(text)) return undefined;
  return `299 - "${text.replace(QUOTED_CHARACTER, "\\$&")}"`;
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
