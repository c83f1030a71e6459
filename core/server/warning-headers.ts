/**
 * Warning headers as kube's warning recorder writes them (k8s.io/apiserver endpoints/filters WithWarningRecorder,
 * recorder.AddWarning): each text once; when the texts pass 4096 runes in all, every warning is cut to 256 runes
 * and no warning is added once 4096 runes are written, so a request cannot grow its response headers without bound.
 */
const TRUNCATE_AT_TOTAL_RUNES = 4 * 1024;
const TRUNCATE_ITEM_RUNES = 256;

function headerValue(text: string): string {
  return `299 - ${JSON.stringify(text)}`;
}

function truncated(text: string): { text: string; runes: number } {
  const runes = Array.from(text);
  if (runes.length <= TRUNCATE_ITEM_RUNES) return { text, runes: runes.length };
  return { text: runes.slice(0, TRUNCATE_ITEM_RUNES).join(""), runes: TRUNCATE_ITEM_RUNES };
}

/** The Warning header values for `texts`, in order. */
export function warningHeaderValues(texts: Iterable<string>): string[] {
  const recorded = new Set<string>();
  const ordered: string[] = [];
  let headers: string[] = [];
  let written = 0;
  let truncating = false;
  for (const text of texts) {
    if (text.length === 0 || recorded.has(text)) continue;
    if (truncating && written >= TRUNCATE_AT_TOTAL_RUNES) break;
    recorded.add(text);
    ordered.push(text);
    const item = truncating ? truncated(text) : { text, runes: Array.from(text).length };
    if (truncating || written + item.runes <= TRUNCATE_AT_TOTAL_RUNES) {
      written += item.runes;
      headers.push(headerValue(item.text));
      continue;
    }
    // Over the limit: from now on truncate, replaying what was written so far cut to size.
    truncating = true;
    written = 0;
    headers = [];
    for (const earlier of ordered) {
      const cut = truncated(earlier);
      written += cut.runes;
      headers.push(headerValue(cut.text));
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
