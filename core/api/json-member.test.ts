import { expect, test } from "bun:test";
import { ownMember, setMember } from "./json-member.ts";

test("setMember keeps '__proto__' an own member, as JSON.parse does, instead of setting the prototype", () => {
  const object: Record<string, unknown> = {};
  setMember(object, "__proto__", { labels: { a: "1" } });
  setMember(object, "name", "x");
  expect(Object.getPrototypeOf(object)).toBe(Object.prototype);
  expect(object.labels).toBeUndefined();
  expect(JSON.stringify(object)).toBe(JSON.stringify(JSON.parse('{"__proto__":{"labels":{"a":"1"}},"name":"x"}')));
});

test("ownMember reads nothing a plain object only inherits", () => {
  const parsed = JSON.parse('{"own":1}');
  expect(ownMember(parsed, "__proto__")).toBeUndefined();
  expect(ownMember(parsed, "constructor")).toBeUndefined();
  expect(ownMember(parsed, "own")).toBe(1);
  expect(ownMember(JSON.parse('{"__proto__":{"b":2}}'), "__proto__")).toEqual({ b: 2 });
});
