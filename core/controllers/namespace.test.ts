import { afterEach, expect, test } from "bun:test";
import { isNotFound } from "../api/errors.ts";
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
