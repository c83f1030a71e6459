import { expect, test } from "bun:test";
import { goQuote } from "./go-text.ts";

test("goQuote() escapes as strconv.Quote: \\x for ASCII controls, \\u and \\U for unprintable non-ASCII, printable characters kept", () => {
  expect(goQuote('a"b\\c\n\x01\x7f')).toBe('"a\\"b\\\\c\\n\\x01\\x7f"');
  expect(goQuote("é\u00a0\u200b😀\u{e0001}")).toBe('"é\\u00a0\\u200b😀\\U000e0001"');
});
