import { expect, test } from "bun:test";
import { Registry as MetricsRegistry } from "prom-client";
import { builtInCatalog } from "../registry/catalog.ts";
import { objectKey } from "../registry/keys.ts";
import { openSqliteStorage } from "../storage/sqlite/mod.ts";
import { ObjectCounts } from "./object-counts.ts";

test('ObjectCountTracker: core and events.k8s.io Events are one store (eventstore.NewREST), counted once as "events"', async () => {
  const catalog = builtInCatalog();
  const core = catalog.byGroupVersionResource("", "v1", "events")!;
  const modern = catalog.byGroupVersionResource("events.k8s.io", "v1", "events")!;
  const storage = openSqliteStorage(":memory:");
  const value = (name: string) => JSON.stringify({ apiVersion: "v1", kind: "Event", metadata: { name, namespace: "ns" } });
  await storage.write({ op: "create", key: objectKey(core, "ns", "a"), value: value("a") });
  const counts = new ObjectCounts(storage, new MetricsRegistry());
  try {
    await counts.track([modern, core]);
    await storage.write({ op: "create", key: objectKey(modern, "ns", "b"), value: value("b") });
    expect(counts.get("events")).toBe(2);
    expect(counts.get("events.events.k8s.io")).toBeUndefined();
  } finally {
    counts.stop();
    storage.close();
  }
});

test("apiserver_storage_objects follows creates and deletes of each tracked collection, bursts and interleaved changes alike", async () => {
  const catalog = builtInCatalog();
  const configMaps = catalog.byGroupVersionResource("", "v1", "configmaps")!;
  const secrets = catalog.byGroupVersionResource("", "v1", "secrets")!;
  const untracked = catalog.byGroupVersionResource("", "v1", "pods")!;
  const storage = openSqliteStorage(":memory:");
  const counts = new ObjectCounts(storage, new MetricsRegistry());
  const value = (name: string) => JSON.stringify({ metadata: { name, namespace: "ns" } });
  try {
    await counts.track([configMaps, secrets]);
    await Promise.all(
      ["a", "b", "c"].map((name) => storage.write({ op: "create", key: objectKey(configMaps, "ns", name), value: value(name) })),
    );
    await storage.write({ op: "create", key: objectKey(untracked, "ns", "p"), value: value("p") });
    await storage.write({ op: "create", key: objectKey(secrets, "ns", "s"), value: value("s") });
    await storage.write({ op: "delete", key: objectKey(configMaps, "ns", "a"), expectedRevision: 0 });
    await storage.write({ op: "update", key: objectKey(configMaps, "ns", "b"), value: value("b"), expectedRevision: 0 });
    expect([counts.get("configmaps"), counts.get("secrets"), counts.get("pods")]).toEqual([2, 1, undefined]);
  } finally {
    counts.stop();
    storage.close();
  }
});
