import { expect, test } from "bun:test";
import { isControllerEnabled, validateControllerList } from "./controller-names.ts";

test("* enables the default controllers but not bootstrapsigner or tokencleaner", () => {
  expect(isControllerEnabled("namespace", ["*"])).toBe(true);
  expect(isControllerEnabled("bootstrapsigner", ["*"])).toBe(false);
  expect(isControllerEnabled("tokencleaner", ["*"])).toBe(false);
});

test("an explicit name or -name wins over *, and without * only named controllers run", () => {
  expect(isControllerEnabled("tokencleaner", ["*", "tokencleaner"])).toBe(true);
  expect(isControllerEnabled("namespace", ["*", "-namespace"])).toBe(false);
  expect(isControllerEnabled("namespace", ["-namespace", "*"])).toBe(false);
  expect(isControllerEnabled("namespace", ["serviceaccount"])).toBe(false);
  expect(isControllerEnabled("serviceaccount", ["serviceaccount"])).toBe(true);
});

test("unknown names are reported as kube reports them", () => {
  expect(validateControllerList(["*", "-namespace", "bogus", "-nope"])).toEqual([
    '"bogus" is not in the list of known controllers',
    '"nope" is not in the list of known controllers',
  ]);
});
