import { afterEach, expect, test } from "bun:test";
import type { ResourceStore } from "../../registry/store.ts";
import { type LeaderLock, LOCK_HELD_LEASE_DURATION_SECONDS, LockLeaderElector } from "./lock-leader-election.ts";
import { microTime } from "./leader-election.ts";
import { eventually, type TestCluster, testCluster } from "./testing.ts";

let cluster: TestCluster | undefined;
afterEach(() => cluster?.close());

const LEASE = { namespace: "kube-system", name: "kubun-controller-manager" };
const TIMING = { leaseDurationMs: 1000, renewDeadlineMs: 600, retryPeriodMs: 20 };

/** An exclusive lock shared by the candidates of one test, as the OS lock is by processes; `die` drops it as kill -9 does. */
function sharedLock() {
  let holder: string | undefined;
  return {
    for(owner: string): LeaderLock {
      return {
        tryAcquire: () => (holder ??= owner) === owner,
        release: () => void (holder === owner && (holder = undefined)),
      };
    },
    die: (owner: string) => void (holder === owner && (holder = undefined)),
  };
}

async function leaseStore(): Promise<ResourceStore> {
  cluster = await testCluster();
  return cluster.registry.store(cluster.catalog.byGroupVersionResource("coordination.k8s.io", "v1", "leases")!);
}

function candidate(leases: ResourceStore, lock: LeaderLock, identity: string, leading: Set<string>, onStopped = () => {}) {
  return new LockLeaderElector(leases, lock, {
    ...LEASE,
    identity,
    ...TIMING,
    onStartedLeading: () => leading.add(identity),
    onStoppedLeading: () => {
      leading.delete(identity);
      onStopped();
    },
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test("the lock holder leads and records itself once as tryAcquireOrRenew fills a new holder's Lease, with no renewals after", async () => {
  const leases = await leaseStore();
  const lock = sharedLock();
  const leading = new Set<string>();
  const a = candidate(leases, lock.for("a"), "a", leading);
  const b = candidate(leases, lock.for("b"), "b", leading);
  a.start();
  await eventually(() => leading.has("a"));
  b.start();
  const recorded = await leases.get(LEASE.namespace, LEASE.name);
  await sleep(10 * TIMING.retryPeriodMs);
  expect([...leading]).toEqual(["a"]);
  const later = await leases.get(LEASE.namespace, LEASE.name);
  expect(later.metadata.resourceVersion).toBe(recorded.metadata.resourceVersion);
  const spec = later.spec as Record<string, unknown>;
  expect(spec).toMatchObject({ holderIdentity: "a", leaseDurationSeconds: LOCK_HELD_LEASE_DURATION_SECONDS, leaseTransitions: 0 });
  expect(spec.renewTime).toBe(spec.acquireTime);
  lock.die("a");
  await eventually(() => leading.has("b"));
  expect((await leases.get(LEASE.namespace, LEASE.name)).spec).toMatchObject({ holderIdentity: "b", leaseTransitions: 1 });
  await b.stop();
  expect((await leases.get(LEASE.namespace, LEASE.name)).spec).toMatchObject({ holderIdentity: "", leaseDurationSeconds: 1 });
});

test("a Lease renewed by a holder elected through the Lease itself is waited out until it expires, as client-go's candidates wait", async () => {
  const leases = await leaseStore();
  const renewedAt = (time: Date) => ({
    holderIdentity: "renewing",
    leaseDurationSeconds: 60,
    renewTime: microTime(time),
    leaseTransitions: 3,
  });
  await leases.create(LEASE.namespace, {
    apiVersion: "coordination.k8s.io/v1",
    kind: "Lease",
    metadata: { ...LEASE },
    spec: renewedAt(new Date()),
  });
  const leading = new Set<string>();
  const elector = candidate(leases, sharedLock().for("c"), "c", leading);
  elector.start();
  await sleep(10 * TIMING.retryPeriodMs);
  expect(leading.size).toBe(0);
  // Its holder stopped renewing a minute ago.
  await leases.update(LEASE.namespace, LEASE.name, (current) => ({ ...current!, spec: renewedAt(new Date(Date.now() - 61_000)) }));
  await eventually(() => leading.has("c"));
  expect((await leases.get(LEASE.namespace, LEASE.name)).spec).toMatchObject({ holderIdentity: "c", leaseTransitions: 4 });
  await elector.stop();
});

test("stop() gives the lock up only after the controllers stopped, so a successor never runs beside them", async () => {
  const leases = await leaseStore();
  const lock = sharedLock();
  const leading = new Set<string>();
  let lockFreeWhenControllersStopped: boolean | undefined;
  const probe = lock.for("probe");
  const a = candidate(leases, lock.for("a"), "a", leading, () => {
    lockFreeWhenControllersStopped = probe.tryAcquire();
  });
  a.start();
  await eventually(() => leading.has("a"));
  await a.stop();
  expect(lockFreeWhenControllersStopped).toBe(false);
  expect(probe.tryAcquire()).toBe(true);
});
