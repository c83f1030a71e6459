/**
 * Go's string order (`a < b` on strings, as kube's sort helpers such as clusterroleaggregation's byName use): the
 * order of the UTF-8 bytes, which is the order of the code points. JavaScript's `<` compares UTF-16 code units,
 * which differs only when one side has a supplementary character (a surrogate) and the other U+E000..U+FFFF there.
 * Not localeCompare: that is ICU collation (case and punctuation ordered otherwise), and its first use makes the
 * process load ICU's collation tables and code (bench/profiles/memory.md, tenth session).
 */
export function compareByteOrder(a: string, b: string): number {
  if (a === b) return 0;
  const shorter = Math.min(a.length, b.length);
  for (let i = 0; i < shorter; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codePointRank(x) - codePointRank(y);
  }
  return a.length - b.length;
}

/** Surrogates (supplementary code points) rank above U+E000..U+FFFF; the rest keeps its order. */
function codePointRank(unit: number): number {
  if (unit < 0xd800) return unit;
  return unit < 0xe000 ? unit + 0x2000 : unit - 0x800;
}
