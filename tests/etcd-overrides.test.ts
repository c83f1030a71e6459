/**
 * --etcd-servers-overrides on two real etcds: Events (core, with their events.k8s.io cohabitants), Leases and Services
 * (with the allocators' RangeAllocations) live on the second etcd, everything else on --etcd-servers, each resource at its own etcd's revision sequence, as kube's
 * storage factory (DefaultStorageFactory.NewConfig) gives each overridden resource a store of its own.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createNamespace, type Json, openWatch, sendJson } from "./_api.ts";
import { etcdKeys, etcdModRevision, etcdRevision } from "./_etcd.ts";
import { kubectlOk } from "./_kubectl.ts";
import { startServer, type TestServer } from "./harness.ts";
import { startTestEtcd, type TestEtcd } from "../core/storage/etcd/testing.ts";

let main: TestEtcd;
let second: TestEtcd;
let server: TestServer;
const flags = () => [
  "--etcd-servers",
  main.endpoint,
  "--etcd-servers-overrides",
  [
    `/events#${second.endpoint}`,
    `coordination.k8s.io/leases#${second.endpoint}`,
    `/services#${second.endpoint}`,
    // The aggregator stores APIServices through SimpleStorageFactory, which knows no overrides.
    `apiregistration.k8s.io/apiservices#${second.endpoint}`,
  ].join(","),
];

beforeAll(async () => {
  [main, second] = await Promise.all([startTestEtcd(), startTestEtcd()]);
  server = await startServer([...flags(), "--etcd-compaction-interval", "0"]);
  await createNamespace(server, "ov");
});
afterAll(async () => {
  await server?.stop();
  await Promise.all([main?.stop(), second?.stop()]);
});

const EVENTS = "/api/v1/namespaces/ov/events";
const event = (name: string) => ({
  apiVersion: "v1",
  kind: "Event",
  metadata: { name },
  involvedObject: { kind: "Pod", name: "p", namespace: "ov" },
  reason: "Tested",
  message: name,
  type: "Normal",
});
const configMap = (name: string) => ({ apiVersion: "v1", kind: "ConfigMap", metadata: { name }, data: { k: "v" } });

async function created(path: string, body: Json): Promise<Json> {
  const answer = await sendJson(server, "POST", path, body);
  expect(answer.status).toBe(201);
  return answer.body;
}

test("kubectl creates, gets and lists overridden Events and Leases, kept in the override etcd at its revisions; ConfigMaps, and APIServices whose override kube ignores, in the main one", async () => {
  const manifests = `
apiVersion: v1
kind: Event
metadata: {name: started, namespace: ov}
involvedObject: {kind: Pod, name: p, namespace: ov}
reason: Started
message: started
type: Normal
---
apiVersion: coordination.k8s.io/v1
kind: Lease
metadata: {name: holder, namespace: ov}
spec: {holderIdentity: me}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: settings, namespace: ov}
data: {k: v}
`;
  await kubectlOk(server, ["create", "-f", "-"], manifests);
  expect(await kubectlOk(server, ["get", "events", "-n", "ov", "-o", "name"])).toContain("event/started");
  expect(await kubectlOk(server, ["get", "leases", "-n", "ov", "-o", "name"])).toBe("lease.coordination.k8s.io/holder\n");
  expect(await kubectlOk(server, ["get", "lease", "holder", "-n", "ov", "-o", "jsonpath={.spec.holderIdentity}"])).toBe("me");
  expect(await kubectlOk(server, ["get", "configmap", "settings", "-n", "ov", "-o", "jsonpath={.data.k}"])).toBe("v");

  expect(await etcdKeys(second.endpoint, "/registry/events/ov/")).toEqual(["/registry/events/ov/started"]);
  expect(await etcdKeys(second.endpoint, "/registry/leases/ov/")).toEqual(["/registry/leases/ov/holder"]);
  expect(await etcdKeys(main.endpoint, "/registry/events/")).toEqual([]);
  expect(await etcdKeys(main.endpoint, "/registry/leases/ov/")).toEqual([]);
  expect(await etcdKeys(main.endpoint, "/registry/configmaps/ov/")).toContain("/registry/configmaps/ov/settings");
  expect(await etcdKeys(second.endpoint, "/registry/configmaps/")).toEqual([]);
  expect(await etcdKeys(main.endpoint, "/registry/apiregistration.k8s.io/apiservices/v1.")).toContain(
    "/registry/apiregistration.k8s.io/apiservices/v1.apps",
  );
  expect(await etcdKeys(second.endpoint, "/registry/apiregistration.k8s.io/")).toEqual([]);

  // resourceVersions are each etcd's mod_revision: the Event's the second etcd's, the ConfigMap's the main one's.
  const eventRV = await kubectlOk(server, ["get", "event", "started", "-n", "ov", "-o", "jsonpath={.metadata.resourceVersion}"]);
  expect(eventRV).toBe(String(await etcdModRevision(second.endpoint, "/registry/events/ov/started")));
  const configMapRV = await kubectlOk(server, ["get", "configmap", "settings", "-n", "ov", "-o", "jsonpath={.metadata.resourceVersion}"]);
  expect(configMapRV).toBe(String(await etcdModRevision(main.endpoint, "/registry/configmaps/ov/settings")));
});

test("an events.k8s.io/v1 Event is the core Event at kube's /registry/events key in the override etcd (AddCohabitatingResources), readable as core/v1", async () => {
  const modern = await created("/apis/events.k8s.io/v1/namespaces/ov/events", {
    apiVersion: "events.k8s.io/v1",
    kind: "Event",
    metadata: { name: "modern" },
    eventTime: "2026-01-01T00:00:00.000000Z",
    reportingController: "example.com/ctl",
    reportingInstance: "ctl-0",
    action: "Testing",
    reason: "Tested",
    regarding: { kind: "Pod", name: "p", namespace: "ov" },
    note: "modern",
    type: "Normal",
  });
  expect(await etcdKeys(second.endpoint, "/registry/events/ov/modern")).toEqual(["/registry/events/ov/modern"]);
  expect(modern.metadata.resourceVersion).toBe(String(await etcdModRevision(second.endpoint, "/registry/events/ov/modern")));
  expect(await kubectlOk(server, ["get", "event", "modern", "-n", "ov", "-o", "jsonpath={.message}/{.reportingComponent}"])).toBe(
    "modern/example.com/ctl",
  );
});

test("Services and the allocators' RangeAllocations live together on the override etcd, as storage_core.go keeps them", async () => {
  await kubectlOk(server, ["create", "service", "clusterip", "web", "-n", "ov", "--tcp=80:8080"]);
  await kubectlOk(server, ["create", "service", "nodeport", "edge", "-n", "ov", "--tcp=80:8080"]);
  const clusterIP = await kubectlOk(server, ["get", "service", "web", "-n", "ov", "-o", "jsonpath={.spec.clusterIP}"]);
  expect(clusterIP).toMatch(/^10\.0\.0\.\d+$/);
  expect(await etcdKeys(second.endpoint, "/registry/services/specs/ov/")).toEqual([
    "/registry/services/specs/ov/edge",
    "/registry/services/specs/ov/web",
  ]);
  expect(await etcdKeys(second.endpoint, "/registry/ranges/")).toEqual([
    "/registry/ranges/serviceips",
    "/registry/ranges/servicenodeports",
  ]);
  expect(await etcdKeys(main.endpoint, "/registry/ranges/")).toEqual([]);
  expect(await etcdKeys(main.endpoint, "/registry/services/specs/")).toEqual([]);
  // Endpoints are not Services: they stay on the main etcd.
  expect(await etcdKeys(main.endpoint, "/registry/services/endpoints/default/kubernetes")).toHaveLength(1);
});

test("a watch on Events from a list's resourceVersion sees exactly the later Events, at the override etcd's revisions", async () => {
  await created(EVENTS, event("before"));
  const listed = (await sendJson(server, "GET", EVENTS)).body.metadata.resourceVersion;
  // Events have no watch cache in kube 1.26 (DefaultWatchCacheSizes), so the watch is etcd's own and sends no bookmarks.
  const watch = await openWatch(server, `${EVENTS}?watch=true&resourceVersion=${listed}&allowWatchBookmarks=true&timeoutSeconds=8`);
  try {
    const later: string[] = [];
    for (const name of ["after-1", "after-2"]) {
      // Writes to the main etcd in between move its revision, not the Events'.
      await created("/api/v1/namespaces/ov/configmaps", configMap(`between-${name}`));
      later.push((await created(EVENTS, event(name))).metadata.resourceVersion);
    }
    const events = await watch.until((e) => e.object?.metadata?.name === "after-2", 20_000);
    expect(events.map((e) => [e.type, e.object.metadata.name, e.object.metadata.resourceVersion]))
      .toEqual([["ADDED", "after-1", later[0]], ["ADDED", "after-2", later[1]]]);
    // The second etcd's revision (Lease renewals there move it too), far below the main etcd's.
    expect(Number(later[1])).toBeLessThanOrEqual(await etcdRevision(second.endpoint));
    expect(Number(later[1])).toBeLessThan(await etcdRevision(main.endpoint));
  } finally {
    await watch.close();
  }
});

test("kubectl get -w on Leases follows the override etcd's changes", async () => {
  const watcher = server.kubectlInBackground(["get", "leases", "-n", "ov", "-w", "-o", "name"]);
  try {
    await watcher.waitFor((out) => out.includes("lease.coordination.k8s.io/holder"));
    await created("/apis/coordination.k8s.io/v1/namespaces/ov/leases", {
      apiVersion: "coordination.k8s.io/v1",
      kind: "Lease",
      metadata: { name: "watched" },
      spec: { holderIdentity: "you" },
    });
    await watcher.waitFor((out) => out.includes("lease.coordination.k8s.io/watched"));
  } finally {
    await watcher.stop();
  }
});

test("the garbage collector, which follows every store, deletes a Lease on the override etcd whose ConfigMap owner is gone", async () => {
  const owner = await created("/api/v1/namespaces/ov/configmaps", configMap("owner"));
  await created("/apis/coordination.k8s.io/v1/namespaces/ov/leases", {
    apiVersion: "coordination.k8s.io/v1",
    kind: "Lease",
    metadata: { name: "owned", ownerReferences: [{ apiVersion: "v1", kind: "ConfigMap", name: "owner", uid: owner.metadata.uid }] },
    spec: {},
  });
  await kubectlOk(server, ["delete", "configmap", "owner", "-n", "ov"]);
  await kubectlOk(server, ["wait", "--for=delete", "lease/owned", "-n", "ov", "--timeout=60s"]);
  expect(await etcdKeys(second.endpoint, "/registry/leases/ov/owned")).toEqual([]);
});

test("a resourceVersion the override etcd compacted answers 410 Expired while the main etcd's history is untouched", async () => {
  const old = (await created(EVENTS, event("compacted-away"))).metadata.resourceVersion;
  const oldConfigMap = (await created("/api/v1/namespaces/ov/configmaps", configMap("kept-history"))).metadata.resourceVersion;
  await created(EVENTS, event("newer"));
  await created(EVENTS, event("newest"));
  // etcd keeps the compaction revision itself: compacting at the newest leaves no way to replay from after `old`.
  const head = await etcdModRevision(second.endpoint, "/registry/events/ov/newest");
  await fetch(`${second.endpoint}/v3/kv/compaction`, { method: "POST", body: JSON.stringify({ revision: String(head), physical: true }) });

  const watch = await openWatch(server, `${EVENTS}?watch=true&resourceVersion=${old}`);
  try {
    const [expired] = await watch.until((e) => e.type === "ERROR");
    expect(expired!.object).toMatchObject({ kind: "Status", code: 410, reason: "Expired" });
    // Without a watch cache the etcd3 store's watcher answers (interpretWatchError's text), as kube 1.26 does for Events.
    expect(expired!.object.message).toBe("The resourceVersion for the provided watch is too old.");
  } finally {
    await watch.close();
  }
  const exact = await sendJson(server, "GET", `${EVENTS}?resourceVersion=${old}&resourceVersionMatch=Exact`);
  expect(exact.status).toBe(410);
  // The ConfigMaps' sequence is the main etcd's, which kept its history.
  const configMaps = await openWatch(server, `/api/v1/namespaces/ov/configmaps?watch=true&resourceVersion=${Number(oldConfigMap) - 1}`);
  try {
    const [first] = await configMaps.until(() => true);
    expect([first!.type, first!.object.metadata.name]).toEqual(["ADDED", "kept-history"]);
  } finally {
    await configMaps.close();
  }
});

test("/healthz/etcd checks --etcd-servers only (kube 1.26's addEtcdHealthEndpoint): with the override etcd down it passes and Events fail", async () => {
  await second.kill();
  try {
    const failed = await sendJson(server, "GET", `${EVENTS}/started`);
    expect(failed.status).toBe(500);
    expect(failed.body.message).toMatch(/^rpc error: code = Unavailable desc = /);
    expect((await sendJson(server, "GET", "/api/v1/namespaces/ov/configmaps/settings")).status).toBe(200);
    // The etcd check probes at most once a second: let a probe run after the outage began.
    await Bun.sleep(1_100);
    const health = await server.request("GET", "/healthz/etcd");
    expect([health.status, await health.text()]).toEqual([200, "ok"]);
  } finally {
    await second.start();
  }
});

test("restarted on both etcds, the server serves every resource again and compacts the override etcd too", async () => {
  await server.kill9();
  server = await startServer([...flags(), "--etcd-compaction-interval", "1s"], { dataDir: server.dataDir });
  expect(await kubectlOk(server, ["get", "events", "-n", "ov", "-o", "name"])).toContain("event/started");
  expect(await kubectlOk(server, ["get", "leases", "-n", "ov", "-o", "name"])).toContain("lease.coordination.k8s.io/watched");
  expect(await kubectlOk(server, ["get", "configmap", "settings", "-n", "ov", "-o", "name"])).toBe("configmap/settings\n");
  await created(EVENTS, event("after-restart"));
  // kube's compactor records each compaction in compact_rev_key of the etcd it compacts.
  for (let i = 0; i < 100 && (await etcdKeys(second.endpoint, "compact_rev_key")).length === 0; i++) await Bun.sleep(200);
  expect(await etcdKeys(second.endpoint, "compact_rev_key")).toEqual(["compact_rev_key"]);
  expect(await etcdKeys(main.endpoint, "compact_rev_key")).toEqual(["compact_rev_key"]);
});
