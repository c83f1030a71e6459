/** The controller manager: its leader-election Lease and the --controllers flag. */
import { afterAll, expect, test } from "bun:test";
import { startServer, type TestServer } from "./harness.ts";
import { kubectlUntil } from "./_workloads.ts";

const servers: TestServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
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
  // LOCK_HELD_LEASE_DURATION_SECONDS; renewals by Lease (client-go's) are pinned with etcd in ha-etcd.test.ts.
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
