import { expect, test } from "bun:test";
import type { KubeObject } from "../../api/types.ts";
import { holdsTemplateOf, newControllerRevision } from "./controller-revision.ts";
import { sameTemplate } from "./deployment-revision.ts";
import { templateWithGoZeroValues } from "./template-zeros.ts";

// A template as an older kubun stored it: without the fields Go always encodes.
const stored = { metadata: { labels: { app: "web" } }, spec: { containers: [{ name: "c", image: "nginx" }] } };
const written = templateWithGoZeroValues(stored);
const owner = (template: unknown): KubeObject => ({
  apiVersion: "apps/v1",
  kind: "DaemonSet",
  metadata: { name: "web", namespace: "default", uid: "uid-1" },
  spec: { template },
});

test("templateWithGoZeroValues() gives a template Go's zero values (creationTimestamp: null, resources: {})", () => {
  expect(written.metadata).toEqual({ labels: { app: "web" }, creationTimestamp: null } as never);
  expect((written.spec as { containers: { resources?: unknown }[] }).containers[0]!.resources).toEqual({});
  expect(stored.metadata).toEqual({ labels: { app: "web" } });
});

test("EqualIgnoreHash: a template written since Go's zero values are kept equals its ReplicaSet's older template", () => {
  expect(sameTemplate(stored, written)).toBe(true);
  expect(sameTemplate(written, { ...stored, spec: { containers: [{ name: "c", image: "httpd" }] } })).toBe(false);
});

test("the history's Match: a DaemonSet's template with Go's zero values still matches its older ControllerRevision", () => {
  const revision = newControllerRevision(owner(stored), { hash: "abc", revision: 1 });
  expect(holdsTemplateOf(revision, owner(written))).toBe(true);
  expect(holdsTemplateOf(revision, owner({ ...stored, spec: { containers: [{ name: "c", image: "httpd" }] } }))).toBe(false);
});
