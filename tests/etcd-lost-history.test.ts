/**
 * A server whose etcd watch history was compacted before it could receive it (it lost etcd while another server
 * wrote and etcd was compacted past those writes) behaves as kube-apiserver's cacher does when its reflector gets
 * ErrCompacted: every open watch ends (Cacher.terminateAllWatchers: the stream just closes), a re-watch from
 * before the gap gets 410 (watchCache.getAllEventsSinceLocked's "too old resource version"), lists show the
 * missed objects, apiserver_storage_objects is counted again, and its controllers, whose informers relisted as
 * client-go's reflector does (the garbage collector's graph too), keep working.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createNamespace, getJson, type Json, openWatch, sendJson } from "./_api.ts";
import { startServer, type TestServer } from "./harness.ts";
import type { WatchEvent } from "./watch-stream.ts";
import { compactTestEtcd, type EtcdLink, startEtcdLink, startTestEtcd, type TestEtcd } from "../core/storage/etcd/testing.ts";

let etcd: TestEtcd;
let link: EtcdLink;
/** Reaches etcd through the link, and runs the controllers. */
let cutOff: TestServer;
/** Reaches etcd directly; writes while the link is cut. */
let other: TestServer;

// Leases long enough that the cut-off server keeps leading the controllers through the cut, even under load.
const LEADER_FLAGS = ["--leader-elect-lease-duration=60s", "--leader-elect-renew-deadline=45s", "--leader-elect-retry-period=2s"];
const storeFlags = (endpoint: string) => ["--etcd-servers", endpoint, "--etcd-prefix", "/lost", "--etcd-compaction-interval", "0"];

beforeAll(async () => {
  etcd = await startTestEtcd();
  link = await startEtcdLink(etcd.endpoint);
  cutOff = await startServer([...storeFlags(link.endpoint), ...LEADER_FLAGS]);
  for (let i = 0; i < 600 && !cutOff.log().includes("successfully acquired lease"); i++) await Bun.sleep(50);
  expect(cutOff.log()).toContain("successfully acquired lease");
  other = await startServer([...storeFlags(etcd.endpoint), ...LEADER_FLAGS]);
});
afterAll(async () => {
  await cutOff?.stop();
  await other?.stop();
  await link?.close();
  await etcd?.stop();
});

const configMap = (name: string) => ({ apiVersion: "v1", kind: "ConfigMap", metadata: { name }, data: { k: "v" } });
const deployment = (name: string) => ({
  apiVersion: "apps/v1",
  kind: "Deployment",
  metadata: { name },
  spec: {
    replicas: 1,
    selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: "c", image: "nginx" }] } },
  },
});

/** Every event until the stream ends; fails if it is still open after timeoutMs. */
async function untilEnd(watch: Awaited<ReturnType<typeof openWatch>>, timeoutMs: number): Promise<WatchEvent[]> {
  const deadline = Date.now() + timeoutMs;
  const events: WatchEvent[] = [];
  for (let event = await watch.next(timeoutMs); event; event = await watch.next(Math.max(1, deadline - Date.now()))) events.push(event);
  expect(await watch.ended(1)).toBe(true);
  return events;
}

async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await Bun.sleep(200);
  }
}

test("history compacted before the server's etcd watch got it ends every watch (terminateAllWatchers), a re-watch from before it is 410, and the controllers' informers relist", async () => {
  await createNamespace(cutOff, "gap");
  const path = "/api/v1/namespaces/gap/configmaps";
  const before = (await getJson(cutOff, path)).metadata.resourceVersion;
  const watch = await openWatch(cutOff, `${path}?watch=true&resourceVersion=${before}`);
  const kubectlWatch = cutOff.kubectlInBackground(["get", "configmaps", "-n", "gap", "--watch", "-o", "name"]);
  try {
    await kubectlWatch.waitFor((out) => out.includes("configmap/kube-root-ca.crt"));
    const owner = await sendJson(cutOff, "POST", path, configMap("owner"));
    const ownerRef = { apiVersion: "v1", kind: "ConfigMap", name: "owner", uid: owner.body.metadata.uid };
    const dependent = { ...configMap("dependent"), metadata: { name: "dependent", ownerReferences: [ownerRef] } };
    expect((await sendJson(cutOff, "POST", path, dependent)).status).toBe(201);
    // Time for the collector to look at the new dependent and find its owner (it reads an owner it does not hold live).
    await Bun.sleep(1000);

    link.cut();
    // Written through the other server while this one cannot see etcd, then compacted away.
    expect((await sendJson(other, "POST", path, configMap("missed"))).status).toBe(201);
    expect((await sendJson(other, "DELETE", `${path}/owner`)).status).toBe(200);
    expect(
      (await sendJson(other, "POST", "/api/v1/namespaces", { apiVersion: "v1", kind: "Namespace", metadata: { name: "made-in-gap" } }))
        .status,
    )
      .toBe(201);
    const deployed = await sendJson(other, "POST", "/apis/apps/v1/namespaces/gap/deployments", deployment("made-in-gap"));
    expect(deployed.status).toBe(201);
    await compactTestEtcd(etcd.endpoint, Number(deployed.body.metadata.resourceVersion));
    link.restore();

    // The open watches end as a terminated cacheWatcher's do: the HTTP stream closes without an ERROR event, and
    // kubectl's watch ends with it.
    const events = await untilEnd(watch, 30_000);
    expect(events.filter((event) => event.type === "ERROR")).toEqual([]);
    expect(events.map((event) => event.object.metadata.name)).not.toContain("missed");
    await kubectlWatch.waitForExit(30_000);

    // client-go's reflector re-watches from its last resourceVersion: inside the lost history that is 410 Expired.
    const rewatch = await openWatch(cutOff, `${path}?watch=true&resourceVersion=${before}`);
    const expired = await rewatch.next(10_000);
    await rewatch.close();
    expect(expired?.type).toBe("ERROR");
    expect(expired?.object).toMatchObject({ kind: "Status", status: "Failure", code: 410, reason: "Expired" });
    expect(expired?.object.message).toStartWith(`too old resource version: ${before} (`);

    // The relist sees what the watch missed.
    const names = (await getJson(cutOff, path)).items.map((item: Json) => item.metadata.name);
    expect(names).toContain("missed");

    // apiserver_storage_objects counts the collections again (the events that kept it current were lost).
    const countsMatch = await eventually(async () => {
      const metrics = await (await cutOff.request("GET", "/metrics")).text();
      const counted = metrics.match(/^apiserver_storage_objects\{resource="configmaps"\} (\d+)$/m)?.[1];
      return { counted, listed: String((await getJson(cutOff, "/api/v1/configmaps")).items.length) };
    }, ({ counted, listed }) => counted === listed);
    expect(countsMatch.counted).toBe(countsMatch.listed);

    // Only the cut-off server runs controllers: the namespace made in the gap reaches them through their
    // informers' relist (the root CA publisher acts on namespace events only).
    const rootCa = await eventually(
      () => cutOff.request("GET", "/api/v1/namespaces/made-in-gap/configmaps/kube-root-ca.crt"),
      (response) => response.status === 200,
    );
    expect(rootCa.status).toBe(200);
    // The garbage collector's graph learns from the relist that the owner is gone, and collects its dependent.
    const dependentGone = await eventually(() => cutOff.request("GET", `${path}/dependent`), (response) => response.status === 404);
    expect(dependentGone.status).toBe(404);
    const replicaSetsOf = (deploymentName: string) =>
      eventually(
        async () => (await getJson(cutOff, "/apis/apps/v1/namespaces/gap/replicasets")).items as Json[],
        (items) => items.some((item) => item.metadata.ownerReferences?.[0]?.name === deploymentName),
      );
    expect((await replicaSetsOf("made-in-gap")).map((item) => item.metadata.ownerReferences?.[0]?.name)).toContain("made-in-gap");
    // And a Deployment created afterwards gets its ReplicaSet.
    expect((await sendJson(cutOff, "POST", "/apis/apps/v1/namespaces/gap/deployments", deployment("after-gap"))).status).toBe(201);
    expect((await replicaSetsOf("after-gap")).map((item) => item.metadata.ownerReferences?.[0]?.name)).toContain("after-gap");
  } finally {
    await watch.close();
    await kubectlWatch.stop();
  }
});
