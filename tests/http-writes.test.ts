/** Writes over HTTP: finalizers, optimistic concurrency, the status subresource, generation, PUT-create. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createConfigMap, createNamespace, expectStatus, getJson, type Json, openWatch, sendJson } from "./_api.ts";
import { startServer, type TestServer } from "./harness.ts";

const NS = "writes";
const CONFIGMAPS = `/api/v1/namespaces/${NS}/configmaps`;
const DEPLOYMENTS = `/apis/apps/v1/namespaces/${NS}/deployments`;
let server: TestServer;

beforeAll(async () => {
  // The Deployments here are written by hand; the deployment controller's status writes would race the tests' PUTs.
  server = await startServer(["--controllers=*,-deployment"]);
  await createNamespace(server, NS);
});
afterAll(async () => {
  await server?.stop();
});

function deployment(name: string, replicas = 1): Json {
  return {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: "c", image: "nginx" }] } },
    },
  };
}

async function createDeployment(name: string): Promise<Json> {
  const answer = await sendJson(server, "POST", DEPLOYMENTS, deployment(name));
  expect(answer.status).toBe(201);
  return answer.body;
}

test("deleting an object with finalizers marks it terminating; removing the last finalizer removes it", async () => {
  const created = await createConfigMap(server, NS, "held", { finalizers: ["example.com/hold"] });
  const watch = await openWatch(server, `${CONFIGMAPS}?watch=true&resourceVersion=${created.metadata.resourceVersion}`);
  try {
    const deleted = await sendJson(server, "DELETE", `${CONFIGMAPS}/held`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.metadata.deletionTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(deleted.body.metadata.deletionGracePeriodSeconds).toBe(0);

    const stillThere = await getJson(server, `${CONFIGMAPS}/held`);
    expect(stillThere.metadata.deletionTimestamp).toBe(deleted.body.metadata.deletionTimestamp);
    expect(stillThere.metadata.finalizers).toEqual(["example.com/hold"]);

    const released = await sendJson(
      server,
      "PATCH",
      `${CONFIGMAPS}/held`,
      { metadata: { finalizers: null } },
      "application/merge-patch+json",
    );
    expect(released.status).toBe(200);
    expectStatus(await sendJson(server, "GET", `${CONFIGMAPS}/held`), 404, "NotFound", 'configmaps "held" not found');

    const events = await watch.until((event) => event.type === "DELETED");
    expect(events.map((event) => event.type)).toEqual(["MODIFIED", "DELETED"]);
    expect(events[0]!.object.metadata.deletionTimestamp).toBeString();
  } finally {
    await watch.close();
  }
});

test("a PUT removing the finalizers of a terminating object removes it", async () => {
  await createConfigMap(server, NS, "held-put", { finalizers: ["example.com/a", "example.com/b"] });
  const terminating = (await sendJson(server, "DELETE", `${CONFIGMAPS}/held-put`)).body;
  const oneLeft = await sendJson(server, "PUT", `${CONFIGMAPS}/held-put`, {
    ...terminating,
    metadata: { ...terminating.metadata, finalizers: ["example.com/b"] },
  });
  expect(oneLeft.status).toBe(200);
  expect(oneLeft.body.metadata.finalizers).toEqual(["example.com/b"]);
  const none = await sendJson(server, "PUT", `${CONFIGMAPS}/held-put`, {
    ...oneLeft.body,
    metadata: { ...oneLeft.body.metadata, finalizers: [] },
  });
  expect(none.status).toBe(200);
  expect((await sendJson(server, "GET", `${CONFIGMAPS}/held-put`)).status).toBe(404);
});

test("a PUT with a stale resourceVersion answers 409 Conflict and changes nothing", async () => {
  const created = await createConfigMap(server, NS, "contended");
  const first = await sendJson(server, "PUT", `${CONFIGMAPS}/contended`, { ...created, data: { winner: "first" } });
  expect(first.status).toBe(200);
  const stale = await sendJson(server, "PUT", `${CONFIGMAPS}/contended`, { ...created, data: { winner: "second" } });
  expectStatus(
    stale,
    409,
    "Conflict",
    'Operation cannot be fulfilled on configmaps "contended": the object has been modified; please apply your changes to the latest version and try again',
  );
  expect(stale.body.details).toEqual({ name: "contended", kind: "configmaps" });
  expect((await getJson(server, `${CONFIGMAPS}/contended`)).data).toEqual({ winner: "first" });
});

test("concurrent merge patches and applies of one object all land: each is applied again to the newer object on a conflict (kube's patcher in GuaranteedUpdate)", async () => {
  await createConfigMap(server, NS, "patched-together");
  const path = `${CONFIGMAPS}/patched-together`;
  const patches = Array.from(
    { length: 12 },
    (_, i) => sendJson(server, "PATCH", path, { data: { [`merge${i}`]: "x" } }, "application/merge-patch+json"),
  );
  const applies = Array.from({ length: 12 }, (_, i) =>
    sendJson(
      server,
      "PATCH",
      `${path}?fieldManager=applier${i}`,
      { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "patched-together" }, data: { [`apply${i}`]: "y" } },
      "application/apply-patch+yaml",
    ));
  const answers = await Promise.all([...patches, ...applies]);
  expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 200));
  const data = (await getJson(server, path)).data;
  expect(Object.keys(data).sort()).toEqual(["key", ...Array.from({ length: 12 }, (_, i) => [`apply${i}`, `merge${i}`]).flat()].sort());
});

test("a patch naming a stale resourceVersion answers 409 Conflict and changes nothing (kube's Store.Update tryUpdate)", async () => {
  const created = await createConfigMap(server, NS, "patched-stale");
  const path = `${CONFIGMAPS}/patched-stale`;
  expect((await sendJson(server, "PATCH", path, { data: { first: "1" } }, "application/merge-patch+json")).status).toBe(200);
  const stale = await sendJson(
    server,
    "PATCH",
    path,
    { metadata: { resourceVersion: created.metadata.resourceVersion }, data: { second: "2" } },
    "application/merge-patch+json",
  );
  expectStatus(
    stale,
    409,
    "Conflict",
    'Operation cannot be fulfilled on configmaps "patched-stale": the object has been modified; please apply your changes to the latest version and try again',
  );
  expect((await getJson(server, path)).data).toEqual({ key: "value", first: "1" });
});

test("a PUT to /status changes only the status of a Deployment", async () => {
  const created = await createDeployment("status-only");
  const body = { ...created, spec: { ...created.spec, replicas: 5 }, status: { replicas: 3, observedGeneration: 1 } };
  const answer = await sendJson(server, "PUT", `${DEPLOYMENTS}/status-only/status`, body);
  expect(answer.status).toBe(200);
  expect(answer.body.status).toMatchObject({ replicas: 3, observedGeneration: 1 });
  expect(answer.body.spec.replicas).toBe(1);
  expect(answer.body.metadata.generation).toBe(1);
  const read = await getJson(server, `${DEPLOYMENTS}/status-only`);
  expect(read.spec.replicas).toBe(1);
  expect(read.status.replicas).toBe(3);
});

test("a PUT to the main resource ignores status changes", async () => {
  const created = await createDeployment("main-only");
  const answer = await sendJson(server, "PUT", `${DEPLOYMENTS}/main-only`, {
    ...created,
    metadata: { ...created.metadata, labels: { l: "1" } },
    status: { replicas: 9 },
  });
  expect(answer.status).toBe(200);
  expect(answer.body.metadata.labels).toEqual({ l: "1" });
  expect(answer.body.status?.replicas).toBeUndefined();
});

test("the same spec with its members in another order bumps no generation (apiequality.Semantic.DeepEqual)", async () => {
  const created = await createDeployment("reordered");
  const reversed = (value: Record<string, unknown>) => Object.fromEntries(Object.entries(value).reverse());
  const answer = await sendJson(server, "PUT", `${DEPLOYMENTS}/reordered`, { ...created, spec: reversed(created.spec) });
  expect(answer.status).toBe(200);
  expect(answer.body.metadata.generation).toBe(created.metadata.generation);
});

test("generation increases on a spec change only", async () => {
  const created = await createDeployment("generations");
  expect(created.metadata.generation).toBe(1);
  const relabeled = await sendJson(
    server,
    "PATCH",
    `${DEPLOYMENTS}/generations`,
    { metadata: { labels: { x: "y" } } },
    "application/merge-patch+json",
  );
  expect(relabeled.body.metadata.generation).toBe(1);
  const scaled = await sendJson(server, "PATCH", `${DEPLOYMENTS}/generations`, { spec: { replicas: 4 } }, "application/merge-patch+json");
  expect(scaled.status).toBe(200);
  expect(scaled.body.metadata.generation).toBe(2);
  const statusOnly = await sendJson(
    server,
    "PATCH",
    `${DEPLOYMENTS}/generations/status`,
    { status: { replicas: 4 } },
    "application/merge-patch+json",
  );
  expect(statusOnly.body.metadata.generation).toBe(2);
});

test("PUT of a missing lease or endpoints creates it with 201", async () => {
  const lease = { apiVersion: "coordination.k8s.io/v1", kind: "Lease", metadata: { name: "leader" }, spec: { holderIdentity: "me" } };
  const leaseAnswer = await sendJson(server, "PUT", `/apis/coordination.k8s.io/v1/namespaces/${NS}/leases/leader`, lease);
  expect(leaseAnswer.status).toBe(201);
  expect(leaseAnswer.body.spec.holderIdentity).toBe("me");
  const endpoints = { apiVersion: "v1", kind: "Endpoints", metadata: { name: "svc" }, subsets: [] };
  expect((await sendJson(server, "PUT", `/api/v1/namespaces/${NS}/endpoints/svc`, endpoints)).status).toBe(201);
  expect(
    (await sendJson(
      server,
      "PUT",
      `/api/v1/namespaces/${NS}/endpoints/svc`,
      await getJson(server, `/api/v1/namespaces/${NS}/endpoints/svc`),
    )).status,
  ).toBe(200);
});

test("PUT of a missing configmap answers 404 NotFound", async () => {
  const answer = await sendJson(server, "PUT", `${CONFIGMAPS}/absent`, {
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: { name: "absent" },
  });
  expectStatus(answer, 404, "NotFound", 'configmaps "absent" not found');
});

test("POST of an existing name answers 409 AlreadyExists", async () => {
  await createConfigMap(server, NS, "twice");
  const again = await sendJson(server, "POST", CONFIGMAPS, { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "twice" } });
  expectStatus(again, 409, "AlreadyExists", 'configmaps "twice" already exists');
});

test("DELETE of a missing object answers 404 NotFound", async () => {
  expectStatus(await sendJson(server, "DELETE", `${CONFIGMAPS}/never`), 404, "NotFound", 'configmaps "never" not found');
});

test("a PUT or PATCH whose object names another namespace is checkName's 400 and changes nothing (UpdateResource, patcher.applyPatch)", async () => {
  const before = await createConfigMap(server, NS, "elsewhere");
  const message = `the namespace of the object (default) does not match the namespace on the request (${NS})`;
  const put = await sendJson(server, "PUT", `${CONFIGMAPS}/elsewhere`, {
    ...before,
    metadata: { ...before.metadata, namespace: "default" },
  });
  expectStatus(put, 400, "BadRequest", message);
  const patch = await sendJson(
    server,
    "PATCH",
    `${CONFIGMAPS}/elsewhere`,
    { metadata: { namespace: "default" } },
    "application/merge-patch+json",
  );
  expectStatus(patch, 400, "BadRequest", message);
  expect((await getJson(server, `${CONFIGMAPS}/elsewhere`)).metadata.resourceVersion).toBe(before.metadata.resourceVersion);
});
