import { expect, test } from "bun:test";
import { byteLength, exceedsByteLength, goQuote } from "./go-text.ts";

test("goQuote() escapes as strconv.Quote: \\x for ASCII controls, \\u and \\U for unprintable non-ASCII, printable characters kept", () => {
  expect(goQuote('a"b\\c\n\x01\x7f')).toBe('"a\\"b\\\\c\\n\\x01\\x7f"');
  expect(goQuote("é\u00a0\u200b😀\u{e0001}")).toBe('"é\\u00a0\\u200b😀\\U000e0001"');
});

test("exceedsByteLength answers Go's len(text) > max, counting bytes only where the UTF-16 length cannot tell", () => {
  for (const max of [0, 1, 2, 3, 4, 5, 6, 63, 64]) {
    for (
      const text of [
        "",
        "a",
        "abc",
        "é",
        "ab€",
        "€€",
        "😀",
        "a😀",
        "\ud800",
        "x".repeat(63),
        "é".repeat(32),
        "€".repeat(21),
        "€".repeat(22),
      ]
    ) {
      expect(exceedsByteLength(text, max)).toBe(byteLength(text) > max);
    }
  }
});
