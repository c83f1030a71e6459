import { afterEach, expect, test } from "bun:test";
import { openSqliteStorage } from "../../storage/sqlite/mod.ts";
import { racingStorage } from "../../storage/testing.ts";
import { eventually, type TestCluster, testCluster } from "../runtime/testing.ts";
import { controllerClient } from "../workloads/mod.ts";
import { startNodeLifecycle } from "./controller.ts";

let cluster: TestCluster | undefined;
let stop: (() => void) | undefined;
afterEach(async () => {
  stop?.();
  await cluster?.close();
});

test("a node changed between the health check and its status write is read again and marked Unknown, the other write kept (monitorNodeHealth retries tryUpdateNodeHealth)", async () => {
  const storage = racingStorage(openSqliteStorage(":memory:"));
  cluster = await testCluster({}, storage);
  const nodes = cluster.registry.store(cluster.catalog.byGroupVersionResource("", "v1", "nodes")!);
  await nodes.create("", { metadata: { name: "quiet" } });
  const key = nodes.key("", "quiet");
  // The kubelet never posts status, so the first write is the controller's Unknown conditions; a label lands first.
  storage.raceNextUpdate(
    key,
    () => nodes.update("", "quiet", (node) => ({ ...node!, metadata: { ...node!.metadata, labels: { zone: "a" } } })),
  );
  const client = controllerClient(cluster.registry, cluster.catalog, { fieldManager: "kube-controller-manager" });
  const loop = startNodeLifecycle(client, { gracePeriodMs: 40_000, startupGracePeriodMs: 0, monitorPeriodMs: 60_000 });
  stop = () => loop.stop();
  const marked = await eventually(async () => {
    const node = await nodes.get("", "quiet");
    const ready = (node.status as { conditions?: { type: string; status: string }[] } | undefined)?.conditions?.find((c) =>
      c.type === "Ready"
    );
    return ready?.status === "Unknown" && node;
  });
  expect(marked.metadata.labels).toEqual({ zone: "a" });
  // The controller's write that met the label (409), the label, and the controller's write on a fresh read.
  expect(storage.updatesOf(key)).toBeGreaterThanOrEqual(3);
});
