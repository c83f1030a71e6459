/**
 * kubun on a real etcd (--etcd-servers): two servers on one etcd see each other's writes in their watches, each
 * exactly once and in order; a continue token that the other server's compaction expired answers 410; a lost etcd
 * fails /healthz's etcd check (kube's newETCD3Check) and requests with 500, and an open watch carries on once etcd
 * is back (when nothing compacted the writes its server missed meanwhile: etcd-lost-history.test.ts has that case).
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createNamespace, type Json, openWatch, sendJson } from "./_api.ts";
import { startServer, type TestServer } from "./harness.ts";
import { startTestEtcd, type TestEtcd } from "../core/storage/etcd/testing.ts";

let etcd: TestEtcd;
const servers: TestServer[] = [];

beforeAll(async () => {
  etcd = await startTestEtcd();
  const flags = ["--etcd-servers", etcd.endpoint, "--etcd-prefix", "/kubun-ha"];
  // One after the other: the second finds the first one's bootstrap objects in etcd. Only the first compacts.
  servers.push(await startServer([...flags, "--etcd-compaction-interval", "1s"]));
  servers.push(await startServer([...flags, "--etcd-compaction-interval", "0"]));
});
afterAll(async () => {
  for (const server of servers) await server.stop();
  await etcd?.stop();
});

const configMap = (name: string) => ({ apiVersion: "v1", kind: "ConfigMap", metadata: { name }, data: { k: "v" } });

test("two servers on one etcd: each one's watch sees every write of both exactly once, in resourceVersion order", async () => {
  const [a, b] = servers as [TestServer, TestServer];
  await createNamespace(a, "ha");
  const path = "/api/v1/namespaces/ha/configmaps";
  const start = (await sendJson(a, "GET", path)).body.metadata.resourceVersion;
  const watches = [
    await openWatch(a, `${path}?watch=true&resourceVersion=${start}`),
    await openWatch(b, `${path}?watch=true&resourceVersion=${start}`),
  ];
  try {
    const created: Json[] = [];
    await Promise.all([a, b].map(async (server, writer) => {
      for (let i = 0; i < 10; i++) {
        const answer = await sendJson(server, "POST", path, configMap(`w${writer}-${i}`));
        expect(answer.status).toBe(201);
        created.push(answer.body);
      }
    }));
    const expected = created
      .map((object) => [object.metadata.name, object.metadata.resourceVersion])
      .sort(([, x], [, y]) => Number(x) - Number(y));
    for (const watch of watches) {
      const events = await watch.until((event) => event.object.metadata.resourceVersion === expected.at(-1)![1]);
      const seen = events.filter((event) => event.type === "ADDED" && event.object.metadata.name !== "kube-root-ca.crt");
      expect(seen.map((event) => [event.object.metadata.name, event.object.metadata.resourceVersion])).toEqual(expected);
    }
  } finally {
    for (const watch of watches) await watch.close();
  }
});

test("a continue token whose revision the other server compacted answers 410 Expired with kube's message (interpretListError)", async () => {
  const [compacting, other] = servers as [TestServer, TestServer];
  await createNamespace(other, "paged");
  const path = "/api/v1/namespaces/paged/configmaps";
  for (const name of ["a", "b", "c"]) expect((await sendJson(other, "POST", path, configMap(name))).status).toBe(201);
  const page = (await sendJson(other, "GET", `${path}?limit=1`)).body;
  const revision = page.metadata.resourceVersion;
  // The first server compacts every second to the revision of a second before: wait until that passed the page's.
  for (let i = 0; i < 100; i++) {
    await sendJson(compacting, "POST", path, configMap(`later-${i}`));
    if ((await sendJson(compacting, "GET", `${path}?resourceVersion=${revision}&resourceVersionMatch=Exact`)).status === 410) break;
    await Bun.sleep(200);
  }
  const answer = await sendJson(other, "GET", `${path}?limit=1&continue=${encodeURIComponent(page.metadata.continue)}`);
  expect(answer.status).toBe(410);
  expect(answer.body).toMatchObject({ kind: "Status", code: 410, reason: "Expired" });
  expect(answer.body.message).toStartWith("The provided continue parameter is too old to display a consistent list result.");
});

test("a server on etcd restarted after kill -9 with its data directory serves the objects written before", async () => {
  const flags = ["--etcd-servers", etcd.endpoint, "--etcd-prefix", "/kubun-ha", "--etcd-compaction-interval", "0"];
  const before = servers[1]!;
  await createNamespace(before, "restart");
  expect((await sendJson(before, "POST", "/api/v1/namespaces/restart/configmaps", configMap("kept"))).status).toBe(201);
  await before.kill9();
  const after = await startServer(flags, { dataDir: before.dataDir });
  servers[1] = after;
  const kept = await sendJson(after, "GET", "/api/v1/namespaces/restart/configmaps/kept");
  expect(kept.status).toBe(200);
  expect(kept.body.data).toEqual({ k: "v" });
});

test("with etcd gone /healthz fails its etcd check and requests answer 500; once etcd is back an open watch carries on", async () => {
  // No compaction during the outage: the compacting server stops, and a write through this one moves its store
  // watch past the last revision that server compacted. (Compacting past the reopening watch ends every watch
  // instead, as kube's cacher does: it made this test fail when the 1 s compactor ran during the outage.)
  await servers.shift()!.stop();
  const server = servers[0]!;
  await createNamespace(server, "outage");
  const path = "/api/v1/namespaces/outage/configmaps";
  const watch = await openWatch(server, `${path}?watch=true`);
  try {
    // Seen on the watch, this write also shows that its history replay is done: etcd may go now.
    expect((await sendJson(server, "POST", path, configMap("before-outage"))).status).toBe(201);
    await watch.until((event) => event.object.metadata.name === "before-outage");
    await etcd.kill();
    let health = await server.request("GET", "/healthz?verbose");
    // The etcd check probes at most once a second (kube's rate-limited newETCD3Check).
    for (let i = 0; i < 40 && health.status === 200; i++) {
      await Bun.sleep(100);
      health = await server.request("GET", "/healthz?verbose");
    }
    expect(health.status).toBe(500);
    expect(await health.text()).toContain("[-]etcd failed: reason withheld");
    // kube's ErrorToAPIStatus of a failed etcd call: 500 with no reason and the gRPC status as the message.
    const failed = await sendJson(server, "GET", `${path}/missing`);
    expect(failed.status).toBe(500);
    expect(failed.body).toMatchObject({ kind: "Status", status: "Failure", code: 500 });
    expect(failed.body.reason).toBeUndefined();
    expect(failed.body.message).toMatch(/^rpc error: code = Unavailable desc = /);

    await etcd.start();
    for (let i = 0; i < 100 && (await server.request("GET", "/healthz")).status !== 200; i++) await Bun.sleep(100);
    expect((await server.request("GET", "/healthz")).status).toBe(200);
    expect((await sendJson(server, "POST", path, configMap("after-outage"))).status).toBe(201);
    // The store watch reopens with a backoff (and grpc's own reconnect backoff) after the outage: allow it 30 s.
    const events = await watch.until((event) => event.object.metadata.name === "after-outage", 30_000);
    expect(events.at(-1)?.type).toBe("ADDED");
  } finally {
    await watch.close();
  }
});
