import { expect, test } from "bun:test";
import type { ResourceType } from "../api/resource-type.ts";
import { type HookedWrite, WriteHooks } from "./write-hook.ts";

const write = (resource: string): HookedWrite => ({
  operation: "create",
  type: { group: "", resource } as ResourceType,
  namespace: "ns",
  object: { metadata: { name: "x" } },
  oldObject: null,
  dryRun: false,
});

test("WriteHooks.run() of a resource without hooks answers at once, with an undo that does nothing", () => {
  const hooks = new WriteHooks();
  hooks.register("", "services", () => {});
  const undo = hooks.run(write("configmaps"));
  expect(typeof undo).toBe("function");
});

test("WriteHooks.run() runs a resource's hooks in order; a failing one undoes those before it", async () => {
  const hooks = new WriteHooks();
  const calls: string[] = [];
  hooks.register("", "services", () => () => void calls.push("undo first"));
  hooks.register("", "services", () => Promise.resolve(() => void calls.push("undo second")));
  const undo = await hooks.run(write("services"));
  undo();
  expect(calls).toEqual(["undo second", "undo first"]);
  hooks.register("", "services", () => Promise.reject(new Error("no")));
  calls.length = 0;
  await expect(hooks.run(write("services"))).rejects.toThrow("no");
  expect(calls).toEqual(["undo second", "undo first"]);
});
