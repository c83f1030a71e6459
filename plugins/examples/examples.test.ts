import { expect, test } from "bun:test";
import { testAttributes } from "../../core/admission/testing.ts";
import type { AdmissionPluginContext } from "../../core/admission/types.ts";
import addDefaultAnnotation, { ANNOTATION } from "./add-default-annotation.ts";
import requireTeamLabel from "./require-team-label.ts";

function context(pluginConfig?: unknown): AdmissionPluginContext {
  const log = { info: () => {}, warn: () => {}, error: () => {} };
  return { config: {} as AdmissionPluginContext["config"], client: {} as AdmissionPluginContext["client"], log, pluginConfig };
}

test("require-team-label refuses a pod without the team label", async () => {
  const plugin = await requireTeamLabel(context());
  expect(() => plugin.validate!(testAttributes())).toThrow('pods "p" is forbidden: missing required label "team"');
});

test("require-team-label accepts a pod with the label its configuration names", async () => {
  const plugin = await requireTeamLabel(context({ label: "owner" }));
  const attributes = testAttributes();
  attributes.object!.metadata.labels = { owner: "payments" };
  expect(() => plugin.validate!(attributes)).not.toThrow();
});

test("require-team-label handles pods and deployments but not configmaps", async () => {
  const plugin = await requireTeamLabel(context());
  expect(plugin.handles!(testAttributes())).toBe(true);
  expect(plugin.handles!(testAttributes({ resource: { group: "apps", version: "v1", resource: "deployments" } }))).toBe(true);
  expect(plugin.handles!(testAttributes({ resource: { group: "", version: "v1", resource: "configmaps" } }))).toBe(false);
});

test("add-default-annotation records the creating user and warns", async () => {
  const plugin = await addDefaultAnnotation(context());
  const attributes = testAttributes();
  await plugin.admit!(attributes);
  expect(attributes.object!.metadata.annotations).toEqual({ [ANNOTATION]: "alice" });
  expect(attributes.warnings).toEqual([`add-default-annotation: set ${ANNOTATION}`]);
});

test("add-default-annotation keeps an annotation the object already has", async () => {
  const plugin = await addDefaultAnnotation(context());
  const attributes = testAttributes();
  attributes.object!.metadata.annotations = { [ANNOTATION]: "bob" };
  await plugin.admit!(attributes);
  expect(attributes.object!.metadata.annotations).toEqual({ [ANNOTATION]: "bob" });
  expect(attributes.warnings).toEqual([]);
});
