import { expect, test } from "bun:test";
import { compareByteOrder } from "./byte-order.ts";

const sorted = (values: string[]) => [...values].sort(compareByteOrder);

test("compareByteOrder orders as Go's string < does: upper case before lower case, punctuation by its byte", () => {
  // localeCompare (ICU collation) would give ["bar", "Foo"] and put "a-b" after "a:b" only by accident of its tables.
  expect(sorted(["bar", "Foo"])).toEqual(["Foo", "bar"]);
  expect(sorted(["a:b", "a-b", "a0", "a"])).toEqual(["a", "a-b", "a0", "a:b"]);
  expect(compareByteOrder("same", "same")).toBe(0);
});

test("compareByteOrder puts supplementary characters after U+E000..U+FFFF, as their UTF-8 bytes sort", () => {
  const privateUse = "\ue000";
  const emoji = "\u{1f600}";
  expect(sorted([emoji, privateUse, "\uffff"])).toEqual([privateUse, "\uffff", emoji]);
  const bytes = (value: string) => [...new TextEncoder().encode(value)];
  const byBytes = [emoji, privateUse, "z", "\u00e9"].sort((a, b) => {
    const [x, y] = [bytes(a), bytes(b)];
    for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
    return x.length - y.length;
  });
  expect(sorted([emoji, privateUse, "z", "\u00e9"])).toEqual(byBytes);
});
