import { expect, test } from "bun:test";
import type { KubeObject } from "../../core/api/types.ts";
import { isWorkload, podFromWorkload } from "./pod-templates.ts";

const template = { metadata: { labels: { app: "a" } }, spec: { containers: [{ name: "c" }] } };

test("workload resources are recognised by group and resource", () => {
  expect(isWorkload({ group: "apps", version: "v1", resource: "deployments" })).toBe(true);
  expect(isWorkload({ group: "", version: "v1", resource: "configmaps" })).toBe(false);
});

test("podFromWorkload finds a Deployment's and a CronJob's pod template as a copy", () => {
  const deployment: KubeObject = { metadata: { name: "d" }, spec: { template } };
  const pod = podFromWorkload({ group: "apps", version: "v1", resource: "deployments" }, deployment)!;
  expect(pod.spec).toEqual(template.spec);
  expect(pod.spec).not.toBe(template.spec);
  const cronJob: KubeObject = { metadata: { name: "cj" }, spec: { jobTemplate: { spec: { template } } } };
  expect(podFromWorkload({ group: "batch", version: "v1", resource: "cronjobs" }, cronJob)?.metadata).toEqual(template.metadata);
});

test("podFromWorkload gives nothing for a workload without a template", () => {
  expect(podFromWorkload({ group: "apps", version: "v1", resource: "deployments" }, { metadata: { name: "d" }, spec: {} })).toBeUndefined();
});
