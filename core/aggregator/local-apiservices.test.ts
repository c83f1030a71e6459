import { expect, test } from "bun:test";
import { builtInCatalog } from "../registry/catalog.ts";
import { desiredLocalAPIServices, needsRestore } from "./local-apiservices.ts";

test("desiredLocalAPIServices() names one APIService per built-in group/version with kube's priorities, none for apiregistration", () => {
  const desired = desiredLocalAPIServices(builtInCatalog());
  expect(desired.get("v1.")?.spec).toEqual({ group: "", version: "v1", groupPriorityMinimum: 18000, versionPriority: 1 });
  expect(desired.get("v1.apps")?.spec).toEqual({ group: "apps", version: "v1", groupPriorityMinimum: 17800, versionPriority: 15 });
  expect(desired.get("v1.apps")?.metadata.labels).toEqual({ "kube-aggregator.kubernetes.io/automanaged": "onstart" });
  expect(desired.has("v1.apiregistration.k8s.io")).toBe(false);
});

test("desiredLocalAPIServices() gives a custom resource group/version the CRD priority, managed continuously", () => {
  const catalog = builtInCatalog();
  const crontab = {
    ...catalog.byGroupVersionResource("apps", "v1", "deployments")!,
    group: "stable.example.com",
    resource: "crontabs",
    kind: "CronTab",
  };
  catalog.add(crontab);
  const desired = desiredLocalAPIServices(catalog).get("v1.stable.example.com");
  expect(desired?.spec).toEqual({ group: "stable.example.com", version: "v1", groupPriorityMinimum: 1000, versionPriority: 100 });
  expect(needsRestore(undefined, desired)).toBe(true);
  expect(needsRestore(desired, desired)).toBe(false);
  expect(needsRestore(undefined, desiredLocalAPIServices(catalog).get("v1.apps"))).toBe(false);
});
