import { expect, test } from "bun:test";
import { selectAdmissionPlugins } from "../core/admission/selection.ts";
import { ADMISSION_PLUGIN_SET, ADMISSION_PLUGINS } from "./mod.ts";

test("every name in kube's order has a catalog entry or is listed as unimplemented, never both", () => {
  const implemented = Object.keys(ADMISSION_PLUGINS);
  expect([...implemented, ...ADMISSION_PLUGIN_SET.unimplemented].sort()).toEqual([...ADMISSION_PLUGIN_SET.order].sort());
  expect(ADMISSION_PLUGIN_SET.unimplemented).toContain("PersistentVolumeLabel");
});

test("no unimplemented plugin is on by default (ValidatingAdmissionPolicy and PersistentVolumeClaimResize are kube defaults)", () => {
  const names = selectAdmissionPlugins(ADMISSION_PLUGIN_SET, { enable: [], disable: [], custom: [] });
  expect(names.filter((name) => ADMISSION_PLUGIN_SET.unimplemented.includes(name))).toEqual([]);
  expect(names).not.toContain("ValidatingAdmissionPolicy");
  expect(names).not.toContain("PersistentVolumeClaimResize");
});

test("the default set runs in kube's order with ResourceQuota last", () => {
  const names = selectAdmissionPlugins(ADMISSION_PLUGIN_SET, { enable: [], disable: [], custom: [] });
  expect(names[0]).toBe("NamespaceLifecycle");
  expect(names.at(-1)).toBe("ResourceQuota");
  expect(names).not.toContain("SecurityContextDeny");
});
