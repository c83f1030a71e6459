import { afterEach, expect, test } from "bun:test";
import { ControllerManager } from "./manager.ts";
import { LeaderElector, microTime } from "./leader-election.ts";
import { eventually, type TestCluster, testCluster } from "./testing.ts";

let cluster: TestCluster | undefined;
afterEach(() => cluster?.close());

const TIMING = { leaseDurationMs: 1000, renewDeadlineMs: 600, retryPeriodMs: 20 };

test("microTime() writes microseconds as metav1.MicroTime does", () => {
  expect(microTime(new Date("2024-01-02T03:04:05.678Z"))).toBe("2024-01-02T03:04:05.678000Z");
});

test("of two candidates on one store only one leads; the other takes over when the leader stops", async () => {
  cluster = await testCluster();
  const leases = cluster.registry.store(cluster.catalog.byGroupVersionResource("coordination.k8s.io", "v1", "leases")!);
  const leading = new Set<string>();
  const candidate = (identity: string) =>
    new LeaderElector(leases, {
      namespace: "kube-system",
      name: "kubun-controller-manager",
      identity,
      ...TIMING,
      onStartedLeading: () => leading.add(identity),
      onStoppedLeading: () => void leading.delete(identity),
    });
  const a = candidate("a");
  const b = candidate("b");
  a.start();
  await eventually(() => leading.has("a"));
  b.start();
  await new Promise((resolve) => setTimeout(resolve, 150));
  expect([...leading]).toEqual(["a"]);
  const lease = await leases.get("kube-system", "kubun-controller-manager");
  expect(lease.spec).toMatchObject({ holderIdentity: "a", leaseDurationSeconds: 1, leaseTransitions: 0 });
  await a.stop();
  await eventually(() => leading.has("b"));
  expect([...leading]).toEqual(["b"]);
  expect((await leases.get("kube-system", "kubun-controller-manager")).spec).toMatchObject({ holderIdentity: "b", leaseTransitions: 1 });
  await b.stop();
});

test("two managers behind leader election run a controller's loop once at a time", async () => {
  cluster = await testCluster();
  const { registry, catalog, settings } = cluster;
  const leases = registry.store(catalog.byGroupVersionResource("coordination.k8s.io", "v1", "leases")!);
  let runningCopies = 0;
  let maxCopies = 0;
  const servers = ["one", "two"].map((identity) => {
    const manager = new ControllerManager(registry, catalog, {
      settings,
      controllers: [{
        name: "counter",
        start(ctx) {
          runningCopies++;
          maxCopies = Math.max(maxCopies, runningCopies);
          ctx.signal.addEventListener("abort", () => runningCopies--);
        },
      }],
    });
    const elector = new LeaderElector(leases, {
      namespace: "kube-system",
      name: "kubun-controller-manager",
      identity,
      ...TIMING,
      onStartedLeading: () => void manager.start(),
      onStoppedLeading: () => void manager.stop(),
    });
    elector.start();
    return elector;
  });
  await eventually(() => runningCopies === 1);
  await new Promise((resolve) => setTimeout(resolve, 100));
  const leader = servers.find((s) => s.leading)!;
  await leader.stop();
  await eventually(() => servers.some((s) => s !== leader && s.leading) && runningCopies === 1);
  expect(maxCopies).toBe(1);
  for (const server of servers) await server.stop();
  expect(runningCopies).toBe(0);
});
