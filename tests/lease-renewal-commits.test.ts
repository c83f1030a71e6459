/**
 * Renewals that share a tick share a durable commit: the simulated kubelets' node Leases (kubelet's lease
 * controller, every 10 s) and the apiserver identity Lease (IdentityLeaseRenewIntervalPeriod, 10 s) renew on one
 * shared timer (core/controllers/runtime/renewal-tick.ts), so group commit writes the four in one SQLite
 * transaction (kubun_storage_commit_batch_size) instead of four.
 */
import { afterAll, expect, test } from "bun:test";
import { getJson, type Json } from "./_api.ts";
import { commitBatchBuckets } from "./commit-batches.ts";
import { startServer } from "./harness.ts";

const server = await startServer(["--simulated-nodes=3"]);
afterAll(() => server.stop());

const NODE_LEASES = "/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases";
const IDENTITY_LEASES = "/apis/coordination.k8s.io/v1/namespaces/kube-system/leases?labelSelector=apiserver.kubernetes.io%2Fidentity";

/** Each renewing Lease's resourceVersion by name. */
async function leaseVersions(): Promise<Map<string, string>> {
  const items = [...(await getJson(server, NODE_LEASES)).items, ...(await getJson(server, IDENTITY_LEASES)).items];
  return new Map(items.map((lease: Json) => [lease.metadata.name, lease.metadata.resourceVersion]));
}

/** Waits until every Lease was renewed since `since` (each is renewed once per tick). */
async function nextTick(since: Map<string, string>): Promise<Map<string, string>> {
  for (;;) {
    const now = await leaseVersions();
    if ([...since].every(([name, version]) => now.get(name) !== version)) return now;
    await Bun.sleep(250);
  }
}

test("the node Leases and the identity Lease renewed on one tick are committed in one durable transaction", async () => {
  let versions = await leaseVersions();
  while (versions.size < 4) {
    await Bun.sleep(250);
    versions = await leaseVersions();
  }
  // Past the start-up writes: from one tick on, an idle server writes only the renewals.
  versions = await nextTick(versions);
  const before = await commitBatchBuckets(server);
  versions = await nextTick(versions);
  versions = await nextTick(versions);
  const after = await commitBatchBuckets(server);
  const committed = (le: string) => after.get(le)! - before.get(le)!;
  expect(versions.size).toBe(4);
  // Two ticks: two transactions of 3-4 writes each, none of one or two.
  expect(committed("2")).toBe(0);
  expect(committed("4")).toBe(2);
  expect(committed("+Inf")).toBe(2);
}, 60_000);
