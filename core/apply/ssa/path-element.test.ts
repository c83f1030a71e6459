import { expect, test } from "bun:test";
import { fieldElement } from "./path-element.ts";

test("fieldElement names a field f:<name> (structured-merge-diff's PathElement.FieldName) for new and repeated names alike", () => {
  expect(fieldElement("data")).toBe("f:data");
  expect(fieldElement("data")).toBe("f:data");
  // More distinct names than the cache keeps: it is emptied and filled again, never answering another name's element.
  const names = Array.from({ length: 10_000 }, (_, i) => `key-${i}`);
  for (const name of names) expect(fieldElement(name)).toBe(`f:${name}`);
  for (const name of names.slice(0, 100)) expect(fieldElement(name)).toBe(`f:${name}`);
  expect(fieldElement("")).toBe("f:");
});
