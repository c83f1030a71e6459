/** The garbage collector as kube-controller-manager runs it, through the in-process server (core/server/testing.ts). */
import { afterAll, expect, test } from "bun:test";
import { startInProcess } from "../../server/testing.ts";

const server = await startInProcess(["--controllers=garbagecollector"]);
afterAll(() => server.stop());

async function gone(path: string): Promise<boolean> {
  for (let tries = 0; tries < 200; tries++) {
    if ((await server.request("GET", path)).status === 404) return true;
    await Bun.sleep(25);
  }
  return false;
}

async function createOwnerAndDependent(suffix: string): Promise<void> {
  const owner = await server.json("POST", "/api/v1/namespaces/default/configmaps", { body: { metadata: { name: `owner-${suffix}` } } });
  const ownerRef = { apiVersion: "v1", kind: "ConfigMap", name: `owner-${suffix}`, uid: owner.body.metadata.uid };
  const dependent = { metadata: { name: `dependent-${suffix}`, ownerReferences: [ownerRef] } };
  expect((await server.json("POST", "/api/v1/namespaces/default/configmaps", { body: dependent })).status).toBe(201);
}

test("attemptToDeleteItem: deleting an owner in the background removes its dependents", async () => {
  await createOwnerAndDependent("bg");
  expect((await server.request("DELETE", "/api/v1/namespaces/default/configmaps/owner-bg")).status).toBe(200);
  expect(await gone("/api/v1/namespaces/default/configmaps/dependent-bg")).toBe(true);
});

test("orphanDependents: propagationPolicy=Orphan strips the owner reference and keeps the dependent", async () => {
  await createOwnerAndDependent("orphan");
  const deleted = await server.request("DELETE", "/api/v1/namespaces/default/configmaps/owner-orphan", {
    body: { kind: "DeleteOptions", apiVersion: "v1", propagationPolicy: "Orphan" },
  });
  expect(deleted.status).toBe(200);
  expect(await gone("/api/v1/namespaces/default/configmaps/owner-orphan")).toBe(true);
  const dependent = await server.json("GET", "/api/v1/namespaces/default/configmaps/dependent-orphan");
  expect(dependent.status).toBe(200);
  expect(dependent.body.metadata.ownerReferences).toBeUndefined();
});

test("referencesDiffs: a dependent whose update dropped its owner reference stays when the owner goes", async () => {
  await createOwnerAndDependent("dropped");
  const path = "/api/v1/namespaces/default/configmaps/dependent-dropped";
  const patched = await server.request("PATCH", path, {
    body: JSON.stringify({ metadata: { ownerReferences: null } }),
    headers: { "Content-Type": "application/merge-patch+json" },
  });
  expect(patched.status).toBe(200);
  expect((await server.request("DELETE", "/api/v1/namespaces/default/configmaps/owner-dropped")).status).toBe(200);
  expect(await gone("/api/v1/namespaces/default/configmaps/owner-dropped")).toBe(true);
  // A pass of the collector after the owner's deletion has had its chance to act.
  await createOwnerAndDependent("after");
  expect((await server.request("DELETE", "/api/v1/namespaces/default/configmaps/owner-after")).status).toBe(200);
  expect(await gone("/api/v1/namespaces/default/configmaps/dependent-after")).toBe(true);
  expect((await server.request("GET", path)).status).toBe(200);
});

test("isDangling: a cluster-scoped object naming an owner of a namespaced kind is never collected (namespacedOwnerOfClusterScopedObjectErr)", async () => {
  const owner = await server.json("POST", "/api/v1/namespaces/default/configmaps", {
    body: { metadata: { name: "owner-of-cluster-role" } },
  });
  const ownerRef = { apiVersion: "v1", kind: "ConfigMap", name: "owner-of-cluster-role", uid: owner.body.metadata.uid };
  const path = "/apis/rbac.authorization.k8s.io/v1/clusterroles/owned-by-a-configmap";
  const role = { metadata: { name: "owned-by-a-configmap", ownerReferences: [ownerRef] }, rules: [] };
  expect((await server.json("POST", "/apis/rbac.authorization.k8s.io/v1/clusterroles", { body: role })).status).toBe(201);
  expect((await server.request("DELETE", "/api/v1/namespaces/default/configmaps/owner-of-cluster-role")).status).toBe(200);
  // A collector pass after the owner's deletion has had its chance to act on the ClusterRole.
  await createOwnerAndDependent("after-cluster-role");
  expect((await server.request("DELETE", "/api/v1/namespaces/default/configmaps/owner-after-cluster-role")).status).toBe(200);
  expect(await gone("/api/v1/namespaces/default/configmaps/dependent-after-cluster-role")).toBe(true);
  const kept = await server.json("GET", path);
  expect(kept.status).toBe(200);
  expect(kept.body.metadata.ownerReferences).toEqual([ownerRef]);
});

test("isDangling: an owner is looked for in its dependent's namespace, so a dependent naming one in another namespace is collected", async () => {
  expect((await server.json("POST", "/api/v1/namespaces", { body: { metadata: { name: "gc-elsewhere" } } })).status).toBe(201);
  // An owner that has an owner of its own, so the graph holds it.
  await createOwnerAndDependent("held");
  const held = await server.json("GET", "/api/v1/namespaces/default/configmaps/dependent-held");
  const ownerRef = { apiVersion: "v1", kind: "ConfigMap", name: "dependent-held", uid: held.body.metadata.uid };
  const dependent = { metadata: { name: "other-namespace-dependent", ownerReferences: [ownerRef] } };
  expect((await server.json("POST", "/api/v1/namespaces/gc-elsewhere/configmaps", { body: dependent })).status).toBe(201);
  expect(await gone("/api/v1/namespaces/gc-elsewhere/configmaps/other-namespace-dependent")).toBe(true);
  expect((await server.request("GET", "/api/v1/namespaces/default/configmaps/dependent-held")).status).toBe(200);
});

interface ListedEvent {
  involvedObject: { name: string; namespace?: string; resourceVersion?: string };
}

async function eventsAbout(namespace: string, name: string): Promise<ListedEvent[]> {
  for (let tries = 0; tries < 200; tries++) {
    const listed = await server.json("GET", `/api/v1/namespaces/${namespace}/events`);
    const about = listed.body.items.filter((event: ListedEvent) => event.involvedObject.name === name);
    if (about.length > 0) return about;
    await Bun.sleep(25);
  }
  return [];
}

test("reportInvalidNamespaceOwnerRef: a dependent naming an owner in another namespace gets a Warning Event, and is collected", async () => {
  expect((await server.json("POST", "/api/v1/namespaces", { body: { metadata: { name: "gc-report" } } })).status).toBe(201);
  const owner = await server.json("POST", "/api/v1/namespaces/default/configmaps", { body: { metadata: { name: "owner-elsewhere" } } });
  const ownerRef = { apiVersion: "v1", kind: "ConfigMap", name: "owner-elsewhere", uid: owner.body.metadata.uid };
  const created = await server.json("POST", "/api/v1/namespaces/gc-report/configmaps", {
    body: { metadata: { name: "names-owner-elsewhere", ownerReferences: [ownerRef] } },
  });
  expect(created.status).toBe(201);
  expect(await gone("/api/v1/namespaces/gc-report/configmaps/names-owner-elsewhere")).toBe(true);
  const [event, ...more] = await eventsAbout("gc-report", "names-owner-elsewhere");
  expect(more).toEqual([]);
  expect(event).toMatchObject({
    type: "Warning",
    reason: "OwnerRefInvalidNamespace",
    message:
      `ownerRef [v1/ConfigMap, namespace: gc-report, name: owner-elsewhere, uid: ${ownerRef.uid}] does not exist in namespace "gc-report"`,
    source: { component: "garbage-collector-controller" },
    involvedObject: {
      apiVersion: "v1",
      kind: "ConfigMap",
      namespace: "gc-report",
      name: "names-owner-elsewhere",
      uid: created.body.metadata.uid,
    },
    count: 1,
  });
  expect(event.involvedObject.resourceVersion).toBeUndefined();
  expect((await server.request("GET", "/api/v1/namespaces/default/configmaps/owner-elsewhere")).status).toBe(200);
});

test("reportInvalidNamespaceOwnerRef: a cluster-scoped dependent naming an existing namespaced owner gets one Warning Event in default", async () => {
  const owner = await server.json("POST", "/api/v1/namespaces/default/configmaps", {
    body: { metadata: { name: "owner-of-reported-role" } },
  });
  const ownerRef = { apiVersion: "v1", kind: "ConfigMap", name: "owner-of-reported-role", uid: owner.body.metadata.uid };
  const role = { metadata: { name: "reported-role", ownerReferences: [ownerRef] }, rules: [] };
  const created = await server.json("POST", "/apis/rbac.authorization.k8s.io/v1/clusterroles", { body: role });
  expect(created.status).toBe(201);
  const [event, ...more] = await eventsAbout("default", "reported-role");
  expect(more).toEqual([]);
  expect(event).toMatchObject({
    type: "Warning",
    reason: "OwnerRefInvalidNamespace",
    message: `ownerRef [v1/ConfigMap, namespace: , name: owner-of-reported-role, uid: ${ownerRef.uid}] does not exist in namespace ""`,
    involvedObject: {
      apiVersion: "rbac.authorization.k8s.io/v1",
      kind: "ClusterRole",
      name: "reported-role",
      uid: created.body.metadata.uid,
    },
    count: 1,
  });
  expect(event.involvedObject.namespace).toBeUndefined();
  // A touch of the role makes the collector look again; it neither reports twice nor deletes the role.
  const touched = await server.request("PATCH", "/apis/rbac.authorization.k8s.io/v1/clusterroles/reported-role", {
    body: JSON.stringify({ metadata: { ownerReferences: [ownerRef, { ...ownerRef, name: "second", uid: "second-uid" }] } }),
    headers: { "Content-Type": "application/merge-patch+json" },
  });
  expect(touched.status).toBe(200);
  await createOwnerAndDependent("after-reported-role");
  expect((await server.request("DELETE", "/api/v1/namespaces/default/configmaps/owner-after-reported-role")).status).toBe(200);
  expect(await gone("/api/v1/namespaces/default/configmaps/dependent-after-reported-role")).toBe(true);
  expect(await eventsAbout("default", "reported-role")).toHaveLength(1);
  expect((await server.request("GET", "/apis/rbac.authorization.k8s.io/v1/clusterroles/reported-role")).status).toBe(200);
});

test("reportInvalidNamespaceOwnerRef: no Event for an owner that exists nowhere", async () => {
  const ownerRef = { apiVersion: "v1", kind: "ConfigMap", name: "never-was", uid: "no-such-uid" };
  const created = await server.json("POST", "/api/v1/namespaces/default/configmaps", {
    body: { metadata: { name: "names-missing-owner", ownerReferences: [ownerRef] } },
  });
  expect(created.status).toBe(201);
  expect(await gone("/api/v1/namespaces/default/configmaps/names-missing-owner")).toBe(true);
  const listed = await server.json("GET", "/api/v1/namespaces/default/events");
  expect(listed.body.items.filter((event: ListedEvent) => event.involvedObject.name === "names-missing-owner")).toEqual([]);
});
