/** The controller manager: its leader-election Lease and the --controllers flag. */
import { afterAll, expect, test } from "bun:test";
import { startServer, type TestServer } from "./harness.ts";
import { kubectlUntil } from "./_workloads.ts";
import { startTestEtcd, type TestEtcd } from "../core/storage/etcd/testing.ts";

const servers: TestServer[] = [];
let etcd: TestEtcd | undefined;
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  await etcd?.stop();
});

async function start(flags: string[]): Promise<TestServer> {
  const server = await startServer(flags);
  servers.push(server);
  return server;
}

test("on SQLite the leader holds the kube-system/kubun-controller-manager Lease by the data directory's lock: recorded once, not renewed", async () => {
  const server = await start(["--leader-elect-retry-period=200ms", "--leader-elect-renew-deadline=1s", "--leader-elect-lease-duration=2s"]);
  const lease = JSON.parse(
    await kubectlUntil(
      server,
      ["get", "lease", "kubun-controller-manager", "-n", "kube-system", "-o", "json"],
      (out) => JSON.parse(out).spec.holderIdentity,
    ),
  );
  // LOCK_HELD_LEASE_DURATION_SECONDS; the Lease renewals of client-go are pinned on etcd below.
  expect(lease.spec).toMatchObject({ leaseDurationSeconds: 2_147_483_647, leaseTransitions: 0, renewTime: lease.spec.acquireTime });
  await Bun.sleep(1000);
  const later = await server.kubectl([
    "get",
    "lease",
    "kubun-controller-manager",
    "-n",
    "kube-system",
    "-o",
    "jsonpath={.metadata.resourceVersion}",
  ]);
  expect(later.stdout).toBe(lease.metadata.resourceVersion);
});

test("on etcd the leader renews the Lease every retry period, as client-go's LeaderElector.tryAcquireOrRenew does", async () => {
  const server = await start([
    `--etcd-servers=${(etcd = await startTestEtcd()).endpoint}`,
    "--leader-elect-retry-period=200ms",
    "--leader-elect-renew-deadline=1s",
    "--leader-elect-lease-duration=2s",
  ]);
  const lease = JSON.parse(
    await kubectlUntil(
      server,
      ["get", "lease", "kubun-controller-manager", "-n", "kube-system", "-o", "json"],
      (out) => JSON.parse(out).spec.holderIdentity,
    ),
  );
  expect(lease.spec).toMatchObject({ leaseDurationSeconds: 2 });
  await kubectlUntil(
    server,
    ["get", "lease", "kubun-controller-manager", "-n", "kube-system", "-o", "jsonpath={.spec.renewTime}"],
    (out) => out !== lease.spec.renewTime,
  );
});

test("--controllers=*,-serviceaccount turns that loop off and leaves the others on", async () => {
  const server = await start(["--controllers=*,-serviceaccount"]);
  await server.kubectl(["create", "namespace", "quiet"]);
  await kubectlUntil(server, ["get", "configmap", "kube-root-ca.crt", "-n", "quiet", "-o", "name"], (out) => out.trim() !== "");
  await Bun.sleep(300);
  const accounts = await server.kubectl(["get", "serviceaccounts", "-n", "quiet", "-o", "name"]);
  expect(accounts.stdout.trim()).toBe("");
});

test("an unknown --controllers name stops the server at start-up", async () => {
  await expect(start(["--controllers=*,nosuchloop"])).rejects.toThrow(/"nosuchloop" is not in the list of known controllers/);
});
