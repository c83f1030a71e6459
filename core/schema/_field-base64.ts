/**
 * Go's base64.StdEncoding.Decode error for `[]byte` fields: kube reports `illegal base64 data at input byte N`
 * with N as Go computes it (byte offsets into the UTF-8 text, CR and LF skipped, padding required).
 */

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const IS_BASE64 = new Uint8Array(256);
for (const c of ALPHABET) IS_BASE64[c.charCodeAt(0)] = 1;
const PAD = 0x3d; // "="
const VALID = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

const isNewline = (b: number): boolean => b === 0x0a || b === 0x0d;

function corrupt(offset: number): string {
  return `illegal base64 data at input byte ${offset}`;
}

/** Where one 4-character quantum starting at `start` goes wrong: the next start, or an error message. */
function decodeQuantum(src: Uint8Array, start: number): number | string {
  let si = start;
  for (let j = 0; j < 4; j++) {
    if (si === src.length) {
      if (j === 0) return si;
      return corrupt(si - j); // a partial quantum without padding
    }
    const byte = src[si++];
    if (IS_BASE64[byte]) continue;
    if (isNewline(byte)) {
      j--;
      continue;
    }
    if (byte !== PAD) return corrupt(si - 1);
    if (j < 2) return corrupt(si - 1); // padding too early
    if (j === 2) {
      // "==" expected: the first "=" is consumed, the second must follow (newlines aside).
      while (si < src.length && isNewline(src[si])) si++;
      if (si === src.length) return corrupt(src.length);
      if (src[si] !== PAD) return corrupt(si - 1);
      si++;
    }
    while (si < src.length && isNewline(src[si])) si++;
    return si < src.length ? corrupt(si) : si; // anything after the padding is garbage
  }
  return si;
}

/** Go's decode error for `text`, or undefined when Go decodes it. */
export function base64Error(text: string): string | undefined {
  if (VALID.test(text)) return undefined;
  const src = new TextEncoder().encode(text);
  let si = 0;
  while (si < src.length) {
    const next = decodeQuantum(src, si);
    if (typeof next === "string") return next;
    if (next === si) break;
    si = next;
  }
  return undefined;
}
