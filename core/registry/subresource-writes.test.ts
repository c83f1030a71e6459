import { expect, test } from "bun:test";
import type { KubeObject } from "../api/types.ts";
import { statusErrorOf } from "../api/testing.ts";
import { checkBodyName, checkName } from "./subresource-writes.ts";

const named = (metadata: Record<string, unknown>) => ({ metadata }) as KubeObject;

test("checkName: an update's object without a name is kube's undeterminable 400 (ContextBasedNaming.ObjectName's errEmptyName)", () => {
  for (const obj of [{} as KubeObject, named({}), named({ name: "" }), named({ name: null })]) {
    const error = statusErrorOf(() => checkName(obj, "app", "ns"));
    expect([error.code, error.message]).toEqual([
      400,
      "the name of the object (app based on URL) was undeterminable: name must be provided",
    ]);
  }
  expect(() => checkName(named({ name: "app" }), "app", "ns")).not.toThrow();
});

test("checkName and checkBodyName: another name or namespace than the URL's is a 400; checkBodyName lets a nameless body pass", () => {
  for (const check of [checkName, checkBodyName]) {
    expect(statusErrorOf(() => check(named({ name: "other" }), "app", "ns")).message).toBe(
      "the name of the object (other) does not match the name on the URL (app)",
    );
    expect(statusErrorOf(() => check(named({ name: "app", namespace: "elsewhere" }), "app", "ns")).message).toBe(
      "the namespace of the object (elsewhere) does not match the namespace on the request (ns)",
    );
  }
  expect(() => checkBodyName(named({}), "app", "ns")).not.toThrow();
});
