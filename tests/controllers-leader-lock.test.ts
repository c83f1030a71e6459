/**
 * Two kubun processes on one SQLite data directory elect their controllers' leader by an OS lock on
 * kubun-leader.lock (core/controllers/runtime/lock-leader-election.ts): one leads, the Lease
 * kube-system/kubun-controller-manager records it once per acquisition as client-go's tryAcquireOrRenew fills a
 * new holder's record and is not renewed, and kill -9 of the leader hands the lock to the other at its next try.
 */
import { afterAll, expect, test } from "bun:test";
import { rm } from "node:fs/promises";
import { createNamespace, getJson, type Json } from "./_api.ts";
import { startServer, type TestServer } from "./harness.ts";

// Sharing one data directory needs --data-dir-shared on every process.
const FLAGS = [
  "--data-dir-shared",
  "--leader-elect-retry-period=200ms",
  "--leader-elect-renew-deadline=1s",
  "--leader-elect-lease-duration=2s",
];
const LEASE_PATH = "/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/kubun-controller-manager";
const ACQUIRED = "successfully acquired lease kube-system/kubun-controller-manager";
/** LOCK_HELD_LEASE_DURATION_SECONDS: the record of a lock holder never expires by time. */
const HELD_UNTIL_RELEASED = 2_147_483_647;

const first = await startServer(FLAGS);
const second = await startServer(FLAGS, { dataDir: first.dataDir });
const servers = [first, second];

afterAll(async () => {
  await Promise.all(servers.map((server) => server.terminate()));
  await rm(first.dataDir, { recursive: true, force: true });
});

async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  for (let i = 0; i < 150; i++) {
    const value = await read();
    if (done(value)) return value;
    await Bun.sleep(100);
  }
  throw new Error(`timed out waiting for ${what}`);
}

const acquisitions = (server: TestServer) => server.log().split("\n").filter((line) => line.includes(ACQUIRED));
const identityIn = (line: string) => /identity="([^"]+)"/.exec(line)?.[1];
const lease = (server: TestServer) => getJson(server, LEASE_PATH);

let leader: TestServer;

test("of two processes on one SQLite data directory exactly one leads, and the Lease names it", async () => {
  const record = await eventually(() => lease(second), (value: Json) => Boolean(value.spec?.holderIdentity), "a lease holder");
  const leading = servers.filter((server) => acquisitions(server).length > 0);
  expect(leading).toHaveLength(1);
  leader = leading[0]!;
  expect(acquisitions(leader)).toHaveLength(1);
  expect(record.spec.holderIdentity).toBe(identityIn(acquisitions(leader)[0]!));
  expect(record.spec.leaseDurationSeconds).toBe(HELD_UNTIL_RELEASED);
  expect(record.spec.renewTime).toBe(record.spec.acquireTime);
});

test("the leader does not renew the Lease: no write to it over many retry periods", async () => {
  const before = await lease(first);
  await Bun.sleep(10 * 200);
  const after = await lease(second);
  expect(after.metadata.resourceVersion).toBe(before.metadata.resourceVersion);
  expect(servers.flatMap(acquisitions)).toHaveLength(1);
});

test("kill -9 of the leader: the other process takes the lock, records itself with one more transition, and runs the controllers", async () => {
  const before = await lease(first);
  const survivor = servers.find((server) => server !== leader)!;
  await leader.kill9();
  const record = await eventually(
    () => lease(survivor),
    (value: Json) => value.spec.holderIdentity !== before.spec.holderIdentity,
    "the survivor to take the lease",
  );
  expect(record.spec.holderIdentity).toBe(identityIn(acquisitions(survivor)[0]!));
  expect(record.spec.leaseTransitions).toBe((before.spec.leaseTransitions ?? 0) + 1);
  await createNamespace(survivor, "after-failover");
  const accounts = await eventually(
    async () =>
      (await getJson(survivor, "/api/v1/namespaces/after-failover/serviceaccounts")).items.map((item: Json) => item.metadata.name),
    (names: string[]) => names.length > 0,
    "the default ServiceAccount",
  );
  expect(accounts).toEqual(["default"]);
});
