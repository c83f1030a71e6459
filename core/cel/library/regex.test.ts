import { expect, test } from "bun:test";
import { celValue } from "./_expect.ts";

// Facts from k8s.io/apiserver/pkg/cel/library regex_test.go (1.26); the test code is this project's.
test("find() answers the leftmost match or the empty string (regex.go find)", () => {
  expect(celValue("'abc 123'.find('[0-9]+')")).toBe("123");
  expect(celValue("'abc 123'.find('[0-9]*')")).toBe("");
  expect(celValue("'abc'.find('[0-9]+')")).toBe("");
});

test("findAll() answers every match, at most `limit` when one is given, none for 0 (regex.go findAll)", () => {
  expect(celValue("'123 abc 456'.findAll('[0-9]+')")).toEqual(["123", "456"]);
  expect(celValue("'123 abc 456'.findAll('[0-9]+', 1)")).toEqual(["123"]);
  expect(celValue("'123 abc 456'.findAll('[0-9]+', 0)")).toEqual([]);
  expect(celValue("'123 abc 456'.findAll('[0-9]+', -1)")).toEqual(["123", "456"]);
  expect(celValue("'abc'.findAll('[0-9]+')")).toEqual([]);
});

test("a pattern RE2 cannot parse fails with Go regexp's message", () => {
  expect(() => celValue("'abc'.find(string('a('))")).toThrow("error parsing regexp: missing closing ): `a(`");
});

test("matches() is also a global function over (string, pattern), as cel-go's standard library declares it", () => {
  expect(celValue("matches('abc 123', '[0-9]+')")).toBe(true);
  expect(celValue("matches('abc', '^[0-9]+$')")).toBe(false);
  expect(celValue("'abc 123'.matches('[0-9]+')")).toBe(true);
});
