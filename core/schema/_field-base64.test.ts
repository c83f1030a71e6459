import { expect, test } from "bun:test";
import { base64Error } from "./_field-base64.ts";

test("base64Error() accepts what Go's StdEncoding decodes", () => {
  for (const ok of ["", "YQ==", "YWI=", "YWJj", "YWJj\nZGVm", "YW\r\nJj"]) {
    expect({ ok, error: base64Error(ok) }).toEqual({ ok, error: undefined });
  }
});

test("base64Error() reports the byte offset Go reports", () => {
  const cases: [string, number][] = [
    ["abc", 0], // a partial quantum is reported at its start
    ["YWJjZ", 4],
    ["YW!j", 2],
    ["Y===", 1],
    ["YQ=", 3],
    ["YQ=x", 2],
    ["YQ==YQ==", 4],
    ["YWI=\nx", 5],
    ["héllo", 1],
  ];
  for (const [text, offset] of cases) {
    expect({ text, error: base64Error(text) }).toEqual({ text, error: `illegal base64 data at input byte ${offset}` });
  }
});
