import { afterEach, expect, test } from "bun:test";
import { isNotFound } from "../api/errors.ts";
import { openSqliteStorage } from "../storage/sqlite/mod.ts";
import { racingStorage } from "../storage/testing.ts";
import { namespaceController } from "./namespace.ts";
import type { ControllerManager } from "./runtime/mod.ts";
import { eventually, type TestCluster, testCluster } from "./runtime/testing.ts";
import { runControllers } from "./_test-manager.ts";

let cluster: TestCluster | undefined;
let manager: ControllerManager | undefined;
afterEach(async () => {
  await manager?.stop();
  await cluster?.close();
});

test("a deleted namespace stays Terminating with kube's conditions while a finalizer holds content, then goes", async () => {
  cluster = await testCluster();
  manager = await runControllers(cluster, [namespaceController]);
  const store = (r: string) => cluster!.registry.store(cluster!.catalog.byGroupVersionResource("", "v1", r)!);
  await store("namespaces").create("", { metadata: { name: "doomed" } });
  await store("configmaps").create("doomed", { metadata: { name: "plain" } });
  await store("configmaps").create("doomed", { metadata: { name: "held", finalizers: ["example.com/hold"] } });
  await store("namespaces").delete("", "doomed");
  const conditions = await eventually(async () => {
    const ns = await store("namespaces").get("", "doomed");
    const found = (ns.status as { conditions?: { type: string; status: string; reason: string; message: string }[] }).conditions;
    return found?.some((c) => c.type === "NamespaceFinalizersRemaining" && c.status === "True") ? found : undefined;
  });
  expect(conditions.map((c) => [c.type, c.status, c.reason, c.message])).toEqual([
    ["NamespaceDeletionDiscoveryFailure", "False", "ResourcesDiscovered", "All resources successfully discovered"],
    ["NamespaceDeletionGroupVersionParsingFailure", "False", "ParsedGroupVersions", "All legacy kube types successfully parsed"],
    ["NamespaceDeletionContentFailure", "False", "ContentDeleted", "All content successfully deleted, may be waiting on finalization"],
    ["NamespaceContentRemaining", "True", "SomeResourcesRemain", "Some resources are remaining: configmaps. has 1 resource instances"],
    [
      "NamespaceFinalizersRemaining",
      "True",
      "SomeFinalizersRemain",
      "Some content in the namespace has finalizers remaining: example.com/hold in 1 resource instances",
    ],
  ]);
  expect((await store("namespaces").get("", "doomed")).status).toMatchObject({ phase: "Terminating" });
  await store("configmaps").update("doomed", "held", (cm) => ({ ...cm!, metadata: { ...cm!.metadata, finalizers: [] } }));
  await eventually(() => store("namespaces").get("", "doomed").then(() => false, (e) => isNotFound(e)));
});

test("a namespace deleted and made again between the controller's read and its write is left alone (kube's retryOnConflictError: uid changed across retries)", async () => {
  const NEW_UID = "00000000-0000-4000-8000-000000000001";
  const storage = racingStorage(openSqliteStorage(":memory:"));
  cluster = await testCluster({}, storage);
  const namespaces = cluster.registry.store(cluster.catalog.byGroupVersionResource("", "v1", "namespaces")!);
  await namespaces.create("", { metadata: { name: "reborn" } });
  const key = namespaces.key("", "reborn");
  // The delete's own update goes through; just before the controller's first write, "reborn" is gone and made
  // again: stored anew under another uid.
  const remake = async () => {
    const stored = JSON.parse((await storage.get(key))!.value);
    const metadata = { name: "reborn", uid: NEW_UID, creationTimestamp: stored.metadata.creationTimestamp };
    const remade = { ...stored, metadata, spec: { finalizers: ["kubernetes"] }, status: { phase: "Active" } };
    await storage.write({ op: "update", key, value: JSON.stringify(remade), expectedRevision: 0 });
  };
  storage.raceNextUpdate(key, () => Promise.resolve(storage.raceNextUpdate(key, remake)));
  manager = await runControllers(cluster, [namespaceController]);
  await namespaces.delete("", "reborn");
  await eventually(() => storage.updatesOf(key) >= 3);
  // The controller's conflicting write and its retry are over once the queue has run the key again; give it that turn.
  await new Promise((resolve) => setTimeout(resolve, 200));
  const reborn = await namespaces.get("", "reborn");
  expect(reborn.metadata.uid).toBe(NEW_UID);
  expect(reborn.status).toEqual({ phase: "Active" });
  expect(reborn.spec).toEqual({ finalizers: ["kubernetes"] });
});
