import { expect, test } from "bun:test";
import { selectAdmissionPlugins } from "../core/admission/selection.ts";
import { ADMISSION_PLUGIN_SET, ADMISSION_PLUGINS } from "./mod.ts";

test("every name in kube's order has a catalog entry", () => {
  expect(Object.keys(ADMISSION_PLUGINS).sort()).toEqual([...ADMISSION_PLUGIN_SET.order].sort());
});

test("the default set runs in kube's order with ResourceQuota last", () => {
  const names = selectAdmissionPlugins(ADMISSION_PLUGIN_SET, { enable: [], disable: [], custom: [] });
  expect(names[0]).toBe("NamespaceLifecycle");
  expect(names.at(-1)).toBe("ResourceQuota");
  expect(names).not.toContain("SecurityContextDeny");
});
