import { afterEach, beforeEach, expect, test } from "bun:test";
import { statusErrorOfAsync as failure } from "../api/testing.ts";
import type { KubeObject } from "../api/types.ts";
import { openSqliteStorage } from "../storage/sqlite/mod.ts";
import type { Storage } from "../storage/storage.ts";
import { builtInCatalog } from "./catalog.ts";
import { listObjects } from "./list.ts";
import { Registry } from "./registry.ts";

const catalog = builtInCatalog();
let storage: Storage;
let registry: Registry;

const type = (group: string, version: string, resource: string) => catalog.byGroupVersionResource(group, version, resource)!;
const configmaps = () => registry.store(type("", "v1", "configmaps"));
const deployments = () => registry.store(type("apps", "v1", "deployments"));
const namespaces = () => registry.store(type("", "v1", "namespaces"));

const cm = (name: string, data: Record<string, string> = {}): KubeObject => ({ metadata: { name }, data });
const deployment = (name: string, replicas = 1): KubeObject => ({
  metadata: { name },
  spec: {
    replicas,
    selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: "c", image: "nginx" }] } },
  },
});

beforeEach(async () => {
  storage = openSqliteStorage(":memory:");
  registry = new Registry(storage);
  await namespaces().create("", { metadata: { name: "ns" } });
});
afterEach(async () => {
  await storage.close();
});

test("create() fills server-owned metadata and the envelope", async () => {
  const created = await configmaps().create("ns", cm("a"));
  expect(created.apiVersion).toBe("v1");
  expect(created.kind).toBe("ConfigMap");
  expect(created.metadata.namespace).toBe("ns");
  expect(created.metadata.uid).toMatch(/^[0-9a-f-]{36}$/);
  expect(created.metadata.creationTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  expect(created.metadata.resourceVersion).toBe(String(storage.currentRevision()));
  expect(created.metadata.generation).toBeUndefined();
});

test("create() with generateName makes a unique name from the prefix", async () => {
  const created = await configmaps().create("ns", { metadata: { generateName: "gen-" } });
  expect(created.metadata.name).toMatch(/^gen-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
});

test("create() answers 409 AlreadyExists for a taken name and 404 for a missing namespace", async () => {
  await configmaps().create("ns", cm("a"));
  const exists = await failure(configmaps().create("ns", cm("a")));
  expect([exists.code, exists.reason, exists.message]).toEqual([409, "AlreadyExists", 'configmaps "a" already exists']);
  const missing = await failure(configmaps().create("nope", cm("b")));
  expect([missing.code, missing.message]).toEqual([404, 'namespaces "nope" not found']);
});

test("create() answers 422 for a name that is not a DNS subdomain", async () => {
  const invalid = await failure(configmaps().create("ns", cm("Bad_Name")));
  expect(invalid.code).toBe(422);
  expect(invalid.reason).toBe("Invalid");
  expect(invalid.details?.causes?.[0]?.field).toBe("metadata.name");
});

test("update() with a stale resourceVersion answers 409 Conflict and changes nothing", async () => {
  const created = await configmaps().create("ns", cm("a", { k: "1" }));
  await configmaps().update("ns", "a", (cur) => ({ ...cur!, data: { k: "2" } }));
  const stale = await failure(configmaps().update("ns", "a", () => ({ ...created, data: { k: "3" } })));
  expect(stale.code).toBe(409);
  expect(stale.message).toBe(
    'Operation cannot be fulfilled on configmaps "a": the object has been modified; please apply your changes to the latest version and try again',
  );
  expect((await configmaps().get("ns", "a")).data).toEqual({ k: "2" });
});

/** A write by someone else that lands after update() read the object and before it writes (the race a retry must absorb). */
async function interleave(calls: number): Promise<void> {
  if (calls === 1) await configmaps().update("ns", "a", (cur) => ({ ...cur!, data: { ...cur!.data as object, other: "y" } }));
}

test("update() runs its change again on a fresh read when a write lands in between (etcd3 store.GuaranteedUpdate retries tryUpdate)", async () => {
  await configmaps().create("ns", cm("a", { k: "1" }));
  let calls = 0;
  // The change keeps the read object's resourceVersion, as internal writers building on `current` do.
  const { object } = await configmaps().update("ns", "a", async (live) => {
    await interleave(++calls);
    return { ...live!, data: { ...live!.data as object, mine: "x" } };
  });
  expect(calls).toBe(2);
  expect(object.data).toEqual({ k: "1", other: "y", mine: "x" });
  expect((await configmaps().get("ns", "a")).data).toEqual({ k: "1", other: "y", mine: "x" });
});

test("a client's resourceVersion stays a precondition across that retry: 409 OptimisticLockErrorMsg (kube's Store.Update tryUpdate)", async () => {
  const created = await configmaps().create("ns", cm("a", { k: "1" }));
  let calls = 0;
  // A PUT body: current when the update read the object, stale once the other write landed.
  const stale = await failure(
    configmaps().update("ns", "a", async () => {
      await interleave(++calls);
      return { ...created, data: { k: "client" } };
    }),
  );
  expect(calls).toBe(2);
  expect([stale.code, stale.reason, stale.message]).toEqual([
    409,
    "Conflict",
    'Operation cannot be fulfilled on configmaps "a": the object has been modified; please apply your changes to the latest version and try again',
  ]);
  expect((await configmaps().get("ns", "a")).data).toEqual({ k: "1", other: "y" });
});

test("update() that changes nothing does not write", async () => {
  const created = await configmaps().create("ns", cm("a", { k: "1" }));
  const { object } = await configmaps().update("ns", "a", (cur) => cur!);
  expect(object.metadata.resourceVersion).toBe(created.metadata.resourceVersion);
});

test("generation bumps on spec changes only, and status writes touch only status", async () => {
  const created = await deployments().create("ns", deployment("d"));
  expect(created.metadata.generation).toBe(1);
  // Cleared by PrepareForCreate; kube's encoding still writes the non-pointer DeploymentStatus struct (go-zero-values.ts).
  expect(created.status).toEqual({});
  const labelled = await deployments().update("ns", "d", (cur) => ({ ...cur!, metadata: { ...cur!.metadata, labels: { a: "b" } } }));
  expect(labelled.object.metadata.generation).toBe(1);
  const scaled = await deployments().update(
    "ns",
    "d",
    (cur) => ({ ...cur!, spec: { ...(cur!.spec as object), replicas: 3 }, status: { replicas: 9 } }),
  );
  expect(scaled.object.metadata.generation).toBe(2);
  expect(scaled.object.status).toEqual({});
  const status = await deployments().update("ns", "d", (cur) => ({ ...cur!, spec: { replicas: 7 }, status: { replicas: 3 } }), {
    subresource: "status",
  });
  expect(status.object.status).toEqual({ replicas: 3 });
  expect((status.object.spec as { replicas: number }).replicas).toBe(3);
  expect(status.object.metadata.generation).toBe(2);
});

test('a body that leaves out a zero field the stored object has (ResourceFieldSelector.divisor "0") is no spec change: generation stays', async () => {
  const withResourceRef = (): KubeObject => {
    const body = deployment("z");
    const container = { name: "c", image: "nginx", env: [{ name: "CPU", valueFrom: { resourceFieldRef: { resource: "limits.cpu" } } }] };
    (body.spec as { template: { spec: { containers: unknown[] } } }).template.spec.containers = [container];
    return body;
  };
  const created = await deployments().create("ns", withResourceRef());
  const env =
    (created.spec as { template: { spec: { containers: { env: { valueFrom: unknown }[] }[] } } }).template.spec.containers[0]!.env;
  expect(env[0]!.valueFrom).toEqual({ resourceFieldRef: { resource: "limits.cpu", divisor: "0" } });
  const replaced = await deployments().update("ns", "z", (cur) => ({ ...withResourceRef(), metadata: cur!.metadata }));
  expect(replaced.object.metadata.generation).toBe(1);
});

test("an object stored without its zero values (by an older kubun) is compared as Go decodes it: the same body bumps no generation", async () => {
  const created = await deployments().create("ns", deployment("old"));
  const key = deployments().key("ns", "old");
  const kv = (await storage.get(key))!;
  const stored = JSON.parse(kv.value);
  expect(stored.spec.template).toMatchObject({ metadata: { creationTimestamp: null }, spec: { containers: [{ resources: {} }] } });
  delete stored.spec.template.metadata.creationTimestamp;
  delete stored.spec.template.spec.containers[0].resources;
  await storage.write({ op: "update", key, value: JSON.stringify(stored), expectedRevision: kv.modRevision });
  const replaced = await deployments().update("ns", "old", (cur) => ({ ...deployment("old"), metadata: cur!.metadata }));
  expect(replaced.object.metadata.generation).toBe(created.metadata.generation);
  expect(replaced.object.spec).toMatchObject({
    template: { metadata: { creationTimestamp: null }, spec: { containers: [{ resources: {} }] } },
  });
});

test("a PUT on a missing object creates it only for kinds that allow it", async () => {
  const leases = registry.store(type("coordination.k8s.io", "v1", "leases"));
  const { created } = await leases.update("ns", "l", () => ({ metadata: { name: "l" }, spec: {} }));
  expect(created).toBe(true);
  const missing = await failure(configmaps().update("ns", "x", () => cm("x")));
  expect(missing.code).toBe(404);
});

test("delete() of an object with finalizers marks it terminating; removing the last finalizer deletes it", async () => {
  await configmaps().create("ns", { metadata: { name: "f", finalizers: ["example.com/hold"] } });
  const first = await configmaps().delete("ns", "f");
  expect(first.deleted).toBe(false);
  expect(first.object.metadata.deletionTimestamp).toBeDefined();
  const again = await configmaps().delete("ns", "f");
  expect(again.object.metadata.deletionTimestamp).toBe(first.object.metadata.deletionTimestamp);
  await configmaps().update("ns", "f", (cur) => ({ ...cur!, metadata: { ...cur!.metadata, finalizers: [] } }));
  expect((await failure(configmaps().get("ns", "f"))).code).toBe(404);
});

test("delete() with a grace period removes a kind without graceful deletion at once (kube's rest.BeforeDelete)", async () => {
  await configmaps().create("ns", cm("g"));
  const { deleted } = await configmaps().delete("ns", "g", { gracePeriodSeconds: 10 });
  expect(deleted).toBe(true);
  expect((await failure(configmaps().get("ns", "g"))).code).toBe(404);
});

const pods = () => registry.store(type("", "v1", "pods"));
const pod = (name: string, nodeName?: string): KubeObject => ({
  metadata: { name },
  spec: { containers: [{ name: "c", image: "nginx" }], ...(nodeName ? { nodeName } : {}) },
});

test("delete() of an unscheduled or finished pod ignores the asked grace period (kube's pod CheckGracefulDelete)", async () => {
  await pods().create("ns", pod("pending"));
  expect((await pods().delete("ns", "pending", { gracePeriodSeconds: 30 })).deleted).toBe(true);
  await pods().create("ns", pod("done", "node-1"));
  await pods().update("ns", "done", (cur) => ({ ...cur!, status: { phase: "Succeeded" } }), { subresource: "status" });
  expect((await pods().delete("ns", "done", { gracePeriodSeconds: 30 })).deleted).toBe(true);
});

test("delete() of a scheduled pod keeps it terminating for the asked grace period, a negative one becoming 1", async () => {
  await pods().create("ns", pod("running", "node-1"));
  const { deleted, object } = await pods().delete("ns", "running", { gracePeriodSeconds: -5 });
  expect(deleted).toBe(false);
  expect(object.metadata.deletionGracePeriodSeconds).toBe(1);
  expect((await pods().delete("ns", "running", { gracePeriodSeconds: 0 })).deleted).toBe(true);
});

test("delete() checks uid and resourceVersion preconditions, in kube's rest.BeforeDelete words", async () => {
  const created = await configmaps().create("ns", cm("p"));
  const wrongUid = await failure(configmaps().delete("ns", "p", { preconditions: { uid: "other" } }));
  expect(wrongUid.code).toBe(409);
  expect(wrongUid.message).toBe(
    `Operation cannot be fulfilled on ConfigMap "p": the UID in the precondition (other) does not match the UID in record (${created.metadata.uid}). The object might have been deleted and then recreated`,
  );
  const { deleted } = await configmaps().delete("ns", "p", { preconditions: { uid: created.metadata.uid } });
  expect(deleted).toBe(true);
});

test("dry-run writes return the result and store nothing", async () => {
  const before = storage.currentRevision();
  const created = await configmaps().create("ns", cm("dry"), { dryRun: true });
  expect(created.metadata.name).toBe("dry");
  expect(storage.currentRevision()).toBe(before);
  expect((await failure(configmaps().get("ns", "dry"))).code).toBe(404);
});

test("deleting a namespace marks it Terminating and keeps it for the namespace controller", async () => {
  const { object, deleted } = await namespaces().delete("", "ns");
  expect(deleted).toBe(false);
  expect((object.status as { phase: string }).phase).toBe("Terminating");
  expect((object.spec as { finalizers: string[] }).finalizers).toEqual(["kubernetes"]);
  const forbidden = await failure(configmaps().create("ns", cm("late")));
  expect(forbidden.code).toBe(403);
  expect(forbidden.message).toBe(
    'configmaps "late" is forbidden: unable to create new content in namespace ns because it is being terminated',
  );
});

test("listObjects() pages at one revision with remainingItemCount", async () => {
  for (let i = 0; i < 5; i++) await configmaps().create("ns", cm(`c${i}`));
  const first = await listObjects(configmaps(), { namespace: "ns", revision: 0, limit: 2 });
  expect(first.list.items.map((o) => o.metadata.name)).toEqual(["c0", "c1"]);
  expect(first.remainingItemCount).toBe(3);
  await configmaps().create("ns", cm("c9"));
  const second = await listObjects(configmaps(), {
    namespace: "ns",
    revision: Number(first.list.metadata.resourceVersion),
    limit: 10,
    startAfter: first.lastKey,
  });
  expect(second.list.items.map((o) => o.metadata.name)).toEqual(["c2", "c3", "c4"]);
  expect(second.lastKey).toBeUndefined();
});

test("create() refuses a body that carries a resourceVersion", async () => {
  const refused = await failure(configmaps().create("ns", { metadata: { name: "rv", resourceVersion: "12" } }));
  expect([refused.code, refused.message]).toEqual([400, "resourceVersion should not be set on objects to be created"]);
});

test("a Secret's stringData is folded into data and not stored", async () => {
  const secrets = registry.store(type("", "v1", "secrets"));
  const created = await secrets.create("ns", { metadata: { name: "s" }, data: { password: "cHc=" }, stringData: { username: "admin" } });
  expect(created.data).toEqual({ password: "cHc=", username: "YWRtaW4=" });
  expect(created.stringData).toBeUndefined();
});
