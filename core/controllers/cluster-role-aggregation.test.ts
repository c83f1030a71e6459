import { expect, test } from "bun:test";
import { builtInCatalog } from "../registry/catalog.ts";
import { Registry } from "../registry/registry.ts";
import { openSqliteStorage } from "../storage/sqlite/mod.ts";
import { aggregatedRules, startClusterRoleAggregation } from "./cluster-role-aggregation.ts";

const role = (name: string, rules: unknown[], labels: Record<string, string> = {}, selector?: Record<string, string>) => ({
  apiVersion: "rbac.authorization.k8s.io/v1",
  kind: "ClusterRole",
  metadata: { name, labels },
  rules,
  ...(selector ? { aggregationRule: { clusterRoleSelectors: [{ matchLabels: selector }] } } : {}),
});
const rule = (resource: string) => ({ apiGroups: [""], resources: [resource], verbs: ["get"] });

test("aggregatedRules() unites the matching roles' rules in name order without duplicates", () => {
  const target = role("target", [], {}, { pick: "yes" });
  const all = [
    target,
    role("b", [rule("pods"), rule("secrets")], { pick: "yes" }),
    role("a", [rule("pods")], { pick: "yes" }),
    role("c", [rule("nodes")]),
  ];
  expect(aggregatedRules(target, all)).toEqual([rule("pods"), rule("secrets")]);
  expect(aggregatedRules(role("plain", []), all)).toBeNull();
});

test("aggregatedRules() takes the roles in Go's byte order of their names (kube's byName in syncClusterRole), not locale order", () => {
  const target = role("target", [], {}, { pick: "yes" });
  const all = [target, role("alpha", [rule("pods")], { pick: "yes" }), role("Zeta", [rule("nodes")], { pick: "yes" })];
  expect(aggregatedRules(target, all)).toEqual([rule("nodes"), rule("pods")]);
});

test("the aggregation controller updates aggregated roles, through chains, as labelled roles come and go", async () => {
  const storage = openSqliteStorage(":memory:");
  const registry = new Registry(storage);
  const store = registry.store(builtInCatalog().byGroupVersionResource("rbac.authorization.k8s.io", "v1", "clusterroles")!);
  const controller = await startClusterRoleAggregation(registry, builtInCatalog());
  try {
    await store.create("", role("edit", [], {}, { "to-edit": "true" }));
    await store.create("", role("view", [], { "to-edit": "true" }, { "to-view": "true" }));
    await store.create("", role("extra", [rule("widgets")], { "to-view": "true" }));
    for (let i = 0; i < 5; i++) await controller.settled();
    expect((await store.get("", "view")).rules).toEqual([rule("widgets")]);
    expect((await store.get("", "edit")).rules).toEqual([rule("widgets")]);
    await store.delete("", "extra");
    for (let i = 0; i < 5; i++) await controller.settled();
    expect((await store.get("", "edit")).rules).toEqual([]);
  } finally {
    controller.stop();
    await storage.close();
  }
});
