import { expect, test } from "bun:test";
import { compareKubeAwareVersions, CUSTOM_RESOURCE_PRIORITY, orderGroups } from "./group-priority.ts";

test("compareKubeAwareVersions() prefers GA, then beta, then alpha, then higher numbers, then other strings", () => {
  const versions = ["v1alpha1", "foo", "v1beta1", "v11alpha2", "v2", "v1", "v1beta2", "bar", "v12alpha1"];
  expect(versions.sort(compareKubeAwareVersions)).toEqual([
    "v2",
    "v1",
    "v1beta2",
    "v1beta1",
    "v12alpha1",
    "v11alpha2",
    "v1alpha1",
    "bar",
    "foo",
  ]);
});

test("orderGroups() sorts groups by priority, ties by APIService name, and puts the aggregator group first", () => {
  const entries = [
    { group: "zeta.io", version: "v1", priority: CUSTOM_RESOURCE_PRIORITY },
    { group: "alpha.io", version: "v1beta1", priority: CUSTOM_RESOURCE_PRIORITY },
    { group: "alpha.io", version: "v1", priority: CUSTOM_RESOURCE_PRIORITY },
    { group: "apps", version: "v1", priority: { group: 17800, version: 15 } },
    { group: "apiregistration.k8s.io", version: "v1", priority: CUSTOM_RESOURCE_PRIORITY },
  ];
  expect(orderGroups(entries)).toEqual([
    { name: "apiregistration.k8s.io", versions: ["v1"] },
    { name: "apps", versions: ["v1"] },
    { name: "alpha.io", versions: ["v1", "v1beta1"] },
    { name: "zeta.io", versions: ["v1"] },
  ]);
});

test("orderGroups() lets a higher version priority beat kube-aware version order", () => {
  const entries = [
    { group: "events.k8s.io", version: "v1", priority: { group: 17750, version: 5 } },
    { group: "events.k8s.io", version: "v1beta1", priority: { group: 17750, version: 15 } },
  ];
  expect(orderGroups(entries)).toEqual([{ name: "events.k8s.io", versions: ["v1beta1", "v1"] }]);
});
