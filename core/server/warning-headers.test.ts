import { expect, test } from "bun:test";
import { warningHeaderValues } from "./warning-headers.ts";

test("each warning text is written once, in order (recorder.AddWarning dedupes)", () => {
  expect(warningHeaderValues(["a", "b", "a", "", "c"])).toEqual(['299 - "a"', '299 - "b"', '299 - "c"']);
});

test("past 4096 runes in all, every warning is cut to 256 runes (recorder.AddWarning truncation)", () => {
  const long = (ch: string) => ch.repeat(1000);
  const values = warningHeaderValues([long("a"), long("b"), long("c"), long("d"), long("e")]);
  expect(values).toEqual(["a", "b", "c", "d", "e"].map((ch) => `299 - "${ch.repeat(256)}"`));
});

test("truncation counts runes, not bytes or UTF-16 units", () => {
  const values = warningHeaderValues(["x".repeat(4096), "ñ😀".repeat(200)]);
  expect(values).toEqual([`299 - "${"x".repeat(256)}"`, `299 - "${"ñ😀".repeat(128)}"`]);
});

test("once 4096 runes are written while truncating, later warnings are dropped", () => {
  const texts = Array.from({ length: 200_000 }, (_, i) => `duplicate field "f${i}" ${"x".repeat(300)}`);
  const values = warningHeaderValues(texts);
  // 16 items of 256 runes reach the limit exactly; the early return then drops the rest.
  expect(values).toEqual(texts.slice(0, 16).map((text) => `299 - ${JSON.stringify(text.slice(0, 256))}`));
});
