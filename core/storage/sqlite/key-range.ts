/**
 * Prefix bounds for index range scans (`key >= lower AND key > after AND key < upper`), never LIKE,
 * so SQLite walks the primary-key b-tree between two points.
 */

/**
 * SQLite orders every TEXT value before every BLOB, so a BLOB upper bound admits all keys while
 * still being a plain `<` the planner can use for a range scan.
 */
const ABOVE_ALL_TEXT = new Uint8Array([0xff]);

export interface KeyRange {
  lower: string;
  /** Exclusive lower bound for paging; "" when paging starts at the prefix. */
  after: string;
  upper: string | Uint8Array;
}

/**
 * The smallest string greater than every string starting with `prefix`, comparing by code point
 * (which is UTF-8 byte order, SQLite's BINARY collation); null when no such string exists.
 */
export function prefixEnd(prefix: string): string | null {
  const codePoints = Array.from(prefix);
  while (codePoints.length > 0) {
    const last = codePoints.pop()!.codePointAt(0)!;
    let next = last + 1;
    if (next >= 0xd800 && next <= 0xdfff) next = 0xe000;
    if (next <= 0x10ffff) return codePoints.join("") + String.fromCodePoint(next);
  }
  return null;
}

/**
 * SQLite's range scan uses one of the two lower bounds and filters rows by the other, so a page after `startAfter`
 * starts at `startAfter` in both: were `lower` the prefix, every page would walk the collection from its start.
 */
export function keyRange(prefix: string, startAfter = ""): KeyRange {
  return { lower: startAfter > prefix ? startAfter : prefix, after: startAfter, upper: prefixEnd(prefix) ?? ABOVE_ALL_TEXT };
}
