import { expect, test } from "bun:test";
import { keyRange, prefixEnd } from "./key-range.ts";

test("prefixEnd() increments the last character", () => {
  expect(prefixEnd("/pods/default/")).toBe("/pods/default0");
  expect(prefixEnd("a")).toBe("b");
});

test("prefixEnd() sorts after every key with the prefix, including non-ASCII ones", () => {
  const prefix = "/cm/é";
  const end = prefixEnd(prefix)!;
  for (const key of ["/cm/é", "/cm/é\u{10ffff}", "/cm/é~", "/cm/éé"]) {
    expect(Buffer.compare(Buffer.from(key), Buffer.from(end))).toBe(-1);
  }
  expect(Buffer.compare(Buffer.from("/cm/ê"), Buffer.from(end))).toBe(0);
});

test("prefixEnd() drops characters that cannot be incremented", () => {
  expect(prefixEnd("a\u{10ffff}")).toBe("b");
  expect(prefixEnd("\u{10ffff}")).toBeNull();
  expect(prefixEnd("")).toBeNull();
});

test("keyRange() of the empty prefix has an upper bound above all text", () => {
  expect(keyRange("").upper).toBeInstanceOf(Uint8Array);
});

test("keyRange() of a later page starts its scan at the page's start, not at the prefix", () => {
  expect(keyRange("/a/", "/a/x")).toEqual({ lower: "/a/x", after: "/a/x", upper: "/a0" });
  expect(keyRange("/a/")).toEqual({ lower: "/a/", after: "", upper: "/a0" });
});
