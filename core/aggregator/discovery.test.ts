import { expect, test } from "bun:test";
import { builtInCatalog } from "../registry/catalog.ts";
import { aggregatedGroup, aggregatedGroupList } from "./discovery.ts";

const WARDLE = [
  { group: "wardle.example.com", version: "v1alpha1", priority: { group: 17790, version: 15 } },
  { group: "wardle.example.com", version: "v1", priority: { group: 17790, version: 15 } },
  { group: "wardle.example.com", version: "v2beta1", priority: { group: 17790, version: 20 } },
];

test("aggregatedGroupList() places a remote group by groupPriorityMinimum among the built-in groups", () => {
  const names = aggregatedGroupList(builtInCatalog(), WARDLE).groups.map((group) => group.name);
  expect(names.slice(0, 4)).toEqual(["apiregistration.k8s.io", "apps", "wardle.example.com", "events.k8s.io"]);
});

test("aggregatedGroup() orders a remote group's versions by versionPriority, then GA before beta before alpha", () => {
  const group = aggregatedGroup(builtInCatalog(), WARDLE, "wardle.example.com");
  expect(group?.versions.map((version) => version.version)).toEqual(["v2beta1", "v1", "v1alpha1"]);
  expect(group?.preferredVersion).toEqual({ groupVersion: "wardle.example.com/v2beta1", version: "v2beta1" });
});

test("aggregatedGroup() knows no group that neither the catalog nor an APIService serves", () => {
  expect(aggregatedGroup(builtInCatalog(), WARDLE, "nothing.example.com")).toBeUndefined();
});
