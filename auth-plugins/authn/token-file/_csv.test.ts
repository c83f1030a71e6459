import { expect, test } from "bun:test";
import { CsvParseError, parseCsv } from "./_csv.ts";

test("parseCsv() splits on commas and keeps spaces and empty fields", () => {
  expect(parseCsv("a, b ,,c\nd")).toEqual([["a", " b ", "", "c"], ["d"]]);
  expect(parseCsv("x,\n")).toEqual([["x", ""]]);
});

test("parseCsv() reads quoted fields with commas, escaped quotes and line breaks", () => {
  expect(parseCsv('t,u,1,"g1,g2"\r\n')).toEqual([["t", "u", "1", "g1,g2"]]);
  expect(parseCsv('"say ""hi""",b')).toEqual([['say "hi"', "b"]]);
  expect(parseCsv('"two\nlines",z\nnext')).toEqual([["two\nlines", "z"], ["next"]]);
});

test("parseCsv() skips blank lines", () => {
  expect(parseCsv("\n\na\n\n\nb\n")).toEqual([["a"], ["b"]]);
});

test("parseCsv() rejects stray quotes with Go's messages", () => {
  expect(() => parseCsv('a,b"c')).toThrow(new CsvParseError(1, 1, 4, 'bare " in non-quoted-field'));
  expect(() => parseCsv('ok\n"abc"d,e')).toThrow('parse error on line 2, column 6: extraneous or missing " in quoted-field');
  expect(() => parseCsv('"open\nstill open')).toThrow(
    'record on line 1; parse error on line 2, column 11: extraneous or missing " in quoted-field',
  );
});
