import { afterEach, expect, test } from "bun:test";
import { Informer, type InformerEvent, keyOf, splitKey } from "./informer.ts";
import { type TestCluster, testCluster } from "./testing.ts";

let cluster: TestCluster | undefined;
afterEach(() => cluster?.close());

test("an informer caches the collection and tells late handlers about existing objects first", async () => {
  cluster = await testCluster();
  const configmaps = cluster.registry.store(cluster.catalog.byGroupVersionResource("", "v1", "configmaps")!);
  await configmaps.create("default", { metadata: { name: "before" } });
  const informer = new Informer(configmaps.type);
  await informer.start(cluster.registry);
  const seen: string[] = [];
  informer.onChange((e: InformerEvent) => seen.push(`${e.type} ${keyOf(e.object)}${e.old ? " (had old)" : ""}`));
  await configmaps.create("kube-system", { metadata: { name: "after" } });
  await configmaps.update("default", "before", (cm) => ({ ...cm!, data: { a: "1" } }));
  await configmaps.delete("kube-system", "after");
  expect(seen).toEqual([
    "ADDED default/before",
    "ADDED kube-system/after",
    "MODIFIED default/before (had old)",
    "DELETED kube-system/after (had old)",
  ]);
  expect(informer.list().map(keyOf)).toEqual(["default/before"]);
  expect(informer.get("default", "before")?.data).toEqual({ a: "1" });
  expect(informer.list("kube-system")).toEqual([]);
  informer.stop();
});

test("an informer of one name caches and reports only the objects of that name, in every namespace", async () => {
  cluster = await testCluster();
  const configmaps = cluster.registry.store(cluster.catalog.byGroupVersionResource("", "v1", "configmaps")!);
  await configmaps.create("default", { metadata: { name: "wanted" } });
  await configmaps.create("default", { metadata: { name: "wanted-not" } });
  const informer = new Informer(configmaps.type, { name: "wanted" });
  await informer.start(cluster.registry);
  const seen: string[] = [];
  informer.onChange((e: InformerEvent) => seen.push(`${e.type} ${keyOf(e.object)}`));
  await configmaps.create("kube-system", { metadata: { name: "wanted" } });
  await configmaps.create("kube-system", { metadata: { name: "other" } });
  await configmaps.update("default", "wanted-not", (cm) => ({ ...cm!, data: { a: "1" } }));
  await configmaps.delete("default", "wanted");
  expect(seen).toEqual(["ADDED default/wanted", "ADDED kube-system/wanted", "DELETED default/wanted"]);
  expect(informer.list().map(keyOf)).toEqual(["kube-system/wanted"]);
  expect(informer.get("default", "wanted-not")).toBeUndefined();
  informer.stop();
});

test("splitKey() reverses keyOf() for namespaced and cluster-scoped objects", () => {
  expect(splitKey("ns/name")).toEqual({ namespace: "ns", name: "name" });
  expect(splitKey("node-1")).toEqual({ namespace: "", name: "node-1" });
});
