/**
 * A Headers object keeps Warning fields appended one by one as one comma-joined value (the fetch standard's
 * combined value, and Bun's toJSON gives only that); kube's recorder writes one field per warning
 * (k8s.io/apiserver endpoints/filters recorder.AddWarning: `w.Header().Add("Warning", ...)`), and so does Go for a
 * proxied answer's repeated fields. The joined value is split back into its elements at the commas outside
 * quoted-strings (RFC 9110 section 5.6.1's list rule; a warn-text and a warn-date are quoted-strings).
 */
const QUOTE = 34;
const BACKSLASH = 92;
const COMMA = 44;

/** The list elements of a comma-joined Warning value, each without the optional whitespace around it. */
export function warningFields(joined: string): string[] {
  const fields: string[] = [];
  let start = 0;
  let quoted = false;
  for (let i = 0; i < joined.length; i++) {
    const code = joined.charCodeAt(i);
    if (quoted && code === BACKSLASH) i++;
    else if (code === QUOTE) quoted = !quoted;
    else if (code === COMMA && !quoted) {
      pushTrimmed(fields, joined.slice(start, i));
      start = i + 1;
    }
  }
  pushTrimmed(fields, joined.slice(start));
  return fields;
}

function pushTrimmed(fields: string[], element: string): void {
  const trimmed = element.trim();
  if (trimmed !== "") fields.push(trimmed);
}
