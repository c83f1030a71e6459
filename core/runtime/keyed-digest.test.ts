import { expect, test } from "bun:test";
import { createHmac, randomBytes } from "node:crypto";
import { keyedDigest } from "./keyed-digest.ts";

test("keyedDigest gives node:crypto's HMAC-SHA256 in base64, again and again, for any text", () => {
  const key = randomBytes(32);
  const digest = keyedDigest(key);
  for (const text of ["", "eyJhbGciOiJSUzI1NiJ9.e30.c2ln", "déjà vu ✓", "x".repeat(5000)]) {
    const expected = createHmac("sha256", key).update(text).digest("base64");
    expect(digest(text)).toBe(expected);
    expect(digest(text)).toBe(expected);
  }
  expect(keyedDigest(randomBytes(32))("token")).not.toBe(digest("token"));
});
