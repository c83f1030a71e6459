/**
 * Three kubun servers sharing their PKI on a three-member etcd cluster: an HA control plane. Any server serves any
 * request and every server's watch sees every write once, in order; the controllers run once, on the server holding
 * the controller Lease, and move when it dies; losing one etcd member keeps the servers serving.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { copyFile, mkdtemp, readdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createConfigMap, createNamespace, getJson, type Json, openWatch, ownNames, sendJson } from "./_api.ts";
import { startServer, type TestServer } from "./harness.ts";
import { startTestEtcdCluster, type TestEtcdCluster } from "../core/storage/etcd/testing.ts";

let cluster: TestEtcdCluster;
const servers: TestServer[] = [];
const ACQUIRED = "successfully acquired lease kube-system/kubun-controller-manager";

beforeAll(async () => {
  cluster = await startTestEtcdCluster(3);
  const flags = [
    `--etcd-servers=${cluster.endpoints.join(",")}`,
    "--leader-elect-lease-duration=3s",
    "--leader-elect-renew-deadline=2s",
    "--leader-elect-retry-period=500ms",
  ];
  const first = await startServer(flags);
  servers.push(first);
  // Servers of one control plane share the cluster CA, service-account key and front proxy: copy the first one's.
  const pki = (await readdir(first.dataDir)).filter((file) => /\.(crt|key)$/.test(file));
  for (let i = 1; i < 3; i++) {
    const dataDir = await mkdtemp(join(tmpdir(), "kubun-ha-"));
    for (const file of pki) await copyFile(join(first.dataDir, file), join(dataDir, file));
    servers.push(await startServer(flags, { dataDir }));
  }
});
afterAll(async () => {
  for (const server of servers) await server.stop();
  await cluster?.stop();
});

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const found = await probe();
    if (found !== undefined) return found;
    await Bun.sleep(200);
  }
  throw new Error(`timed out waiting for ${what}`);
}

const leaders = (candidates: TestServer[]) => candidates.filter((server) => server.log().includes(ACQUIRED));

async function podNames(server: TestServer): Promise<string[]> {
  return (await getJson(server, "/api/v1/namespaces/ha/pods?labelSelector=app%3Dweb")).items.map((pod: Json) => pod.metadata.name);
}

test("every server's watch sees each write made through any of the three exactly once, in resourceVersion order", async () => {
  await createNamespace(servers[0]!, "ha");
  const path = "/api/v1/namespaces/ha/configmaps";
  const start = (await getJson(servers[1]!, path)).metadata.resourceVersion;
  const watches = await Promise.all(servers.map((server) => openWatch(server, `${path}?watch=true&resourceVersion=${start}`)));
  try {
    const created = (await Promise.all(servers.map(async (server, writer) => {
      const made: Json[] = [];
      for (let i = 0; i < 15; i++) made.push(await createConfigMap(server, "ha", `w${writer}-${i}`));
      return made;
    }))).flat();
    const expected = created.map((object) => [object.metadata.name, Number(object.metadata.resourceVersion)])
      .sort(([, x], [, y]) => Number(x) - Number(y));
    const last = String(expected.at(-1)![1]);
    for (const watch of watches) {
      const events = await watch.until((event) => event.object.metadata.resourceVersion === last);
      const mine = events.filter((event) => event.object.metadata.name.startsWith("w"));
      expect(mine.map((event) => [event.type, event.object.metadata.name, Number(event.object.metadata.resourceVersion)])).toEqual(
        expected.map(([name, revision]) => ["ADDED", name, revision]),
      );
    }
    // Any server answers a read of what another wrote.
    for (const server of servers) expect(ownNames(await getJson(server, path))).toHaveLength(45);
  } finally {
    for (const watch of watches) await watch.close();
  }
});

test("the controllers run once, on the Lease holder, and move to another server when it is killed", async () => {
  const [leader] = await until("one server to lead", async () => (leaders(servers).length > 0 ? leaders(servers) : undefined));
  expect(leaders(servers)).toHaveLength(1);
  const deployment = {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name: "web" },
    spec: {
      replicas: 3,
      selector: { matchLabels: { app: "web" } },
      template: { metadata: { labels: { app: "web" } }, spec: { containers: [{ name: "web", image: "nginx" }] } },
    },
  };
  const follower = servers.find((server) => server !== leader)!;
  expect((await sendJson(follower, "POST", "/apis/apps/v1/namespaces/ha/deployments", deployment)).status).toBe(201);
  await until("3 pods", async () => ((await podNames(follower)).length === 3 ? true : undefined));
  // A second set of controllers would have made more ReplicaSets or pods by now.
  await Bun.sleep(1500);
  expect(await podNames(follower)).toHaveLength(3);
  expect((await getJson(follower, "/apis/apps/v1/namespaces/ha/replicasets")).items).toHaveLength(1);

  await leader!.kill9();
  const survivors = servers.filter((server) => server !== leader);
  const [next] = await until("a surviving server to take the lease", async () => {
    const found = leaders(survivors);
    return found.length > 0 ? found : undefined;
  });
  expect(leaders(survivors)).toHaveLength(1);
  const patch = await next!.request("PATCH", "/apis/apps/v1/namespaces/ha/deployments/web", {
    body: JSON.stringify({ spec: { replicas: 5 } }),
    headers: { "Content-Type": "application/merge-patch+json" },
  });
  expect(patch.status).toBe(200);
  await until("5 pods", async () => ((await podNames(survivors[0]!)).length === 5 ? true : undefined));
  servers.splice(servers.indexOf(leader!), 1);
  await leader!.stop();
});

test("losing one of three etcd members keeps every server reading and writing", async () => {
  await cluster.members[0]!.kill();
  for (const [i, server] of servers.entries()) {
    const created = await until("a write after losing a member", async () => {
      const answer = await sendJson(server, "POST", "/api/v1/namespaces/ha/configmaps", {
        apiVersion: "v1",
        kind: "ConfigMap",
        metadata: { name: `after-loss-${i}` },
      });
      return answer.status === 201 ? answer.body : undefined;
    });
    expect((await getJson(server, `/api/v1/namespaces/ha/configmaps/after-loss-${i}`)).metadata.uid).toBe(created.metadata.uid);
  }
  await cluster.members[0]!.start();
});
