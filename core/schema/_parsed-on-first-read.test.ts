import { expect, test } from "bun:test";
import { parsedOnFirstRead } from "./_parsed-on-first-read.ts";

const isParsed = (definitions: object, name: string) => "value" in Object.getOwnPropertyDescriptor(definitions, name)!;

test("parsedOnFirstRead() lists every name but parses a definition only when it is read, once", () => {
  const definitions = parsedOnFirstRead(
    new Map([["a.A", '{"type":"string"}'], ["a.B", '{"type":"object","properties":{"x":{"ref":"a.A"}}}']]),
  );
  expect(Object.keys(definitions)).toEqual(["a.A", "a.B"]);
  expect(Object.hasOwn(definitions, "a.B")).toBe(true);
  expect(isParsed(definitions, "a.A") || isParsed(definitions, "a.B")).toBe(false);
  const first = definitions["a.B"];
  expect(first).toEqual({ type: "object", properties: { x: { ref: "a.A" } } });
  expect(definitions["a.B"]).toBe(first);
  expect([isParsed(definitions, "a.A"), isParsed(definitions, "a.B")]).toEqual([false, true]);
  expect({ ...definitions }).toEqual({ "a.A": { type: "string" }, "a.B": first });
});
