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
