import { expect, test } from "bun:test";
import { warningHeaderValues } from "./warning-headers.ts";

/** The header value a client decoding the bytes as UTF-8 reads as `text`. */
const utf8Bytes = (text: string) => Buffer.from(text, "utf8").toString("latin1");

test("each warning text is written once, in order (recorder.AddWarning dedupes)", () => {
  expect(warningHeaderValues(["a", "b", "a", "", "c"])).toEqual(['299 - "a"', '299 - "b"', '299 - "c"']);
});

test("past 4096 runes in all, every warning is cut to 256 runes (recorder.AddWarning truncation)", () => {
  const long = (ch: string) => ch.repeat(1000);
  const values = warningHeaderValues([long("a"), long("b"), long("c"), long("d"), long("e")]);
  expect(values).toEqual(["a", "b", "c", "d", "e"].map((ch) => `299 - "${ch.repeat(256)}"`));
});

test("truncation counts runes, not bytes", () => {
  const values = warningHeaderValues(["x".repeat(4096), "ñ".repeat(400)]);
  expect(values).toEqual([`299 - "${"x".repeat(256)}"`, utf8Bytes(`299 - "${"ñ".repeat(256)}"`)]);
});

test("once 4096 runes are written while truncating, later warnings are dropped", () => {
  const texts = Array.from({ length: 200_000 }, (_, i) => `duplicate field "f${i}" ${"x".repeat(300)}`);
  const values = warningHeaderValues(texts);
  // 16 items of 256 runes reach the limit exactly; the early return then drops the rest.
  expect(values).toEqual(texts.slice(0, 16).map((text) => `299 - ${JSON.stringify(text.slice(0, 256))}`));
});

test("NewWarningHeader escapes only the quote and the backslash", () => {
  expect(warningHeaderValues(['say "hi" \\ bye'])).toEqual(['299 - "say \\"hi\\" \\\\ bye"']);
});

test("a text with a control character or invalid UTF-8 gets no header (NewWarningHeader's error), the others do", () => {
  expect(warningHeaderValues(["line\nbreak", "tab\there", "c1\u0085", "lone \ud800", "kept"])).toEqual(['299 - "kept"']);
});

test("non-ASCII text is written as its UTF-8 bytes, one character per byte, which node:http(2) put on the wire as they are (NewWarningHeader's UTF-8)", () => {
  const texts = ["café", "⚠ careful", "😀"];
  expect(warningHeaderValues(texts)).toEqual(texts.map((text) => utf8Bytes(`299 - "${text}"`)));
  expect(warningHeaderValues(["café"])).toEqual(['299 - "caf\u00c3\u00a9"']);
  expect(() => new Headers({ Warning: warningHeaderValues(texts)[2]! })).not.toThrow();
});
