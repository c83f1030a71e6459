/**
 * DELETE as kube-apiserver 1.26 answers it over HTTP: graceful deletion (rest.BeforeDelete), preconditions,
 * namespaces (the namespace REST's Delete and NamespaceLifecycle) and deletecollection (Store.DeleteCollection).
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createNamespace, getJson, type Json, openWatch, sendJson } from "./_api.ts";
import { startServer, type TestServer } from "./harness.ts";
import { exampleCrd } from "./_crd.ts";

const NS = "deletes";
let server: TestServer;

beforeAll(async () => {
  server = await startServer();
  await createNamespace(server, NS);
});
afterAll(() => server.stop());

/** A pod bound to a node no kubelet runs, so only DELETE requests change it. */
const boundPod = (name: string) => ({
  apiVersion: "v1",
  kind: "Pod",
  metadata: { name },
  spec: { nodeName: "no-kubelet", terminationGracePeriodSeconds: 30, containers: [{ name: "c", image: "nginx" }] },
});
const podPath = (name: string) => `/api/v1/namespaces/${NS}/pods/${name}`;
const seconds = (timestamp: string) => Date.parse(timestamp) / 1000;

test("a pod's deletionTimestamp is when its grace period ends, and a shorter grace period moves it earlier (rest.BeforeDelete)", async () => {
  expect((await sendJson(server, "POST", `/api/v1/namespaces/${NS}/pods`, boundPod("graceful"))).status).toBe(201);
  const asked = Math.floor(Date.now() / 1000);
  const first = await sendJson(server, "DELETE", podPath("graceful"));
  expect(first.status).toBe(200);
  expect(first.body.metadata.deletionGracePeriodSeconds).toBe(30);
  expect(seconds(first.body.metadata.deletionTimestamp)).toBeGreaterThanOrEqual(asked + 30);

  // An equal or longer grace period leaves the pending deletion as it is (BeforeDelete's gracefulPending).
  const same = await sendJson(server, "DELETE", `${podPath("graceful")}?gracePeriodSeconds=60`);
  expect(same.body.metadata).toMatchObject({
    resourceVersion: first.body.metadata.resourceVersion,
    deletionTimestamp: first.body.metadata.deletionTimestamp,
    deletionGracePeriodSeconds: 30,
  });

  const shorter = await sendJson(server, "DELETE", `${podPath("graceful")}?gracePeriodSeconds=10`);
  expect(shorter.status).toBe(200);
  expect(shorter.body.metadata.deletionGracePeriodSeconds).toBe(10);
  expect(seconds(shorter.body.metadata.deletionTimestamp)).toBe(seconds(first.body.metadata.deletionTimestamp) - 20);
  expect((await getJson(server, podPath("graceful"))).metadata.deletionGracePeriodSeconds).toBe(10);
});

test("a negative grace period keeps a scheduled pod terminating for 1 second, not gone at once (rest.BeforeDelete, pod CheckGracefulDelete)", async () => {
  expect((await sendJson(server, "POST", `/api/v1/namespaces/${NS}/pods`, boundPod("negative"))).status).toBe(201);
  const answer = await sendJson(server, "DELETE", `${podPath("negative")}?gracePeriodSeconds=-5`);
  expect(answer.status).toBe(200);
  expect(answer.body.metadata.deletionGracePeriodSeconds).toBe(1);
  expect((await getJson(server, podPath("negative"))).metadata.deletionGracePeriodSeconds).toBe(1);
});

test("a pod deleted with grace period 0 is marked, then removed: a watch sees MODIFIED then DELETED (updateForGracefulDeletionAndFinalizers)", async () => {
  const created = await sendJson(server, "POST", `/api/v1/namespaces/${NS}/pods`, boundPod("immediate"));
  expect(created.status).toBe(201);
  const watch = await openWatch(
    server,
    `/api/v1/namespaces/${NS}/pods?watch=true&fieldSelector=metadata.name%3Dimmediate&resourceVersion=${created.body.metadata.resourceVersion}`,
  );
  const answer = await sendJson(server, "DELETE", `${podPath("immediate")}?gracePeriodSeconds=0`);
  expect(answer.status).toBe(200);
  expect(answer.body.metadata.deletionGracePeriodSeconds).toBe(0);
  const events = await watch.until((event) => event.type === "DELETED");
  await watch.close();
  expect(events.map((event) => [event.type, (event.object as Json).metadata.deletionGracePeriodSeconds])).toEqual([
    ["MODIFIED", 0],
    ["DELETED", 0],
  ]);
});

test("a uid or resourceVersion precondition that does not hold is a 409 naming the Kind (rest.BeforeDelete)", async () => {
  const created = await sendJson(server, "POST", `/api/v1/namespaces/${NS}/configmaps`, { metadata: { name: "guarded" } });
  const uid = created.body.metadata.uid;
  const wrongUid = await sendJson(server, "DELETE", `/api/v1/namespaces/${NS}/configmaps/guarded`, { preconditions: { uid: "not-it" } });
  expect(wrongUid.status).toBe(409);
  expect(wrongUid.body).toMatchObject({
    reason: "Conflict",
    message:
      `Operation cannot be fulfilled on ConfigMap "guarded": the UID in the precondition (not-it) does not match the UID in record (${uid}). The object might have been deleted and then recreated`,
    details: { name: "guarded", kind: "ConfigMap" },
  });
  const deployment = {
    metadata: { name: "guarded" },
    spec: {
      selector: { matchLabels: { app: "guarded" } },
      template: { metadata: { labels: { app: "guarded" } }, spec: { containers: [{ name: "c", image: "nginx" }] } },
    },
  };
  const made = await sendJson(server, "POST", `/apis/apps/v1/namespaces/${NS}/deployments`, deployment);
  expect(made.status).toBe(201);
  const path = `/apis/apps/v1/namespaces/${NS}/deployments/guarded`;
  const stale = await sendJson(server, "DELETE", path, { preconditions: { resourceVersion: "1" } });
  expect(stale.status).toBe(409);
  expect(stale.body.message).toMatch(
    /^Operation cannot be fulfilled on Deployment\.apps "guarded": the ResourceVersion in the precondition \(1\) does not match the ResourceVersion in record \(\d+\)\. The object might have been modified$/,
  );
  expect(stale.body.details).toEqual({ name: "guarded", group: "apps", kind: "Deployment" });
});

test("a namespace's own preconditions answer in storage's words (namespace REST Delete)", async () => {
  await createNamespace(server, "guarded-ns");
  const uid = (await getJson(server, "/api/v1/namespaces/guarded-ns")).metadata.uid;
  const wrongUid = await sendJson(server, "DELETE", "/api/v1/namespaces/guarded-ns", { preconditions: { uid: "not-it" } });
  expect(wrongUid.status).toBe(409);
  expect(wrongUid.body.message).toBe(
    `Operation cannot be fulfilled on namespaces "guarded-ns": Precondition failed: UID in precondition: not-it, UID in object meta: ${uid}`,
  );
});

test("a deleted namespace is Terminating without a grace period; deleting it again answers it unchanged (namespace REST Delete)", async () => {
  await createNamespace(server, "ending");
  const held = { metadata: { name: "held", finalizers: ["example.com/hold"] } };
  expect((await sendJson(server, "POST", "/api/v1/namespaces/ending/configmaps", held)).status).toBe(201);
  const first = await sendJson(server, "DELETE", "/api/v1/namespaces/ending");
  expect(first.status).toBe(200);
  expect(first.body.status.phase).toBe("Terminating");
  expect(first.body.metadata.deletionTimestamp).toBeDefined();
  expect("deletionGracePeriodSeconds" in first.body.metadata).toBe(false);

  // While spec.finalizers remain, a DELETE changes nothing: no orphan finalizer for this Orphan request.
  const again = await sendJson(server, "DELETE", "/api/v1/namespaces/ending?propagationPolicy=Orphan");
  expect(again.status).toBe(200);
  expect(again.body.metadata.finalizers).toBeUndefined();
  expect((await getJson(server, "/api/v1/namespaces/ending")).metadata.finalizers).toBeUndefined();

  // NamespaceLifecycle.Admit: the cause says "namespace X is being terminated", apart from the message.
  const refused = await sendJson(server, "POST", "/api/v1/namespaces/ending/configmaps", { metadata: { name: "late" } });
  expect(refused.status).toBe(403);
  expect(refused.body).toMatchObject({
    reason: "Forbidden",
    message: 'configmaps "late" is forbidden: unable to create new content in namespace ending because it is being terminated',
    details: {
      name: "late",
      kind: "configmaps",
      causes: [{ reason: "NamespaceTerminating", message: "namespace ending is being terminated", field: "metadata.namespace" }],
    },
  });
});

test("the namespace controller deletes content in the background: a Job gets no orphan finalizer (namespacedResourcesDeleter)", async () => {
  await createNamespace(server, "emptied");
  const job = {
    metadata: { name: "held-job", finalizers: ["example.com/hold"] },
    spec: { suspend: true, template: { spec: { restartPolicy: "Never", containers: [{ name: "c", image: "busybox" }] } } },
  };
  const created = await sendJson(server, "POST", "/apis/batch/v1/namespaces/emptied/jobs", job);
  expect(created.status).toBe(201);
  const watch = await openWatch(
    server,
    `/apis/batch/v1/namespaces/emptied/jobs?watch=true&resourceVersion=${created.body.metadata.resourceVersion}`,
  );
  expect((await sendJson(server, "DELETE", "/api/v1/namespaces/emptied")).status).toBe(200);
  const [marked] = (await watch.until((event) => (event.object as Json).metadata.deletionTimestamp !== undefined)).slice(-1);
  await watch.close();
  // A Job's own default (batch/v1 DefaultGarbageCollectionPolicy) would have added orphan.
  expect((marked.object as Json).metadata.finalizers).toEqual(["example.com/hold"]);
});

test("a namespace deleted with orphanDependents=false is held for its dependents: foregroundDeletion and a 202 (namespace REST Delete, DeleteResource)", async () => {
  await createNamespace(server, "cascading");
  const answer = await sendJson(server, "DELETE", "/api/v1/namespaces/cascading", {
    kind: "DeleteOptions",
    apiVersion: "v1",
    orphanDependents: false,
  });
  expect(answer.status).toBe(202);
  expect(answer.body.metadata.finalizers).toEqual(["foregroundDeletion"]);
});

test("deletecollection answers the list as it was read before the deletes (Store.DeleteCollection returns its listObj)", async () => {
  for (const name of ["sweep-a", "sweep-b"]) {
    const made = await sendJson(server, "POST", `/api/v1/namespaces/${NS}/configmaps`, { metadata: { name, labels: { sweep: "yes" } } });
    expect(made.status).toBe(201);
  }
  const listed = await getJson(server, `/api/v1/namespaces/${NS}/configmaps?labelSelector=sweep%3Dyes`);
  const answer = await sendJson(server, "DELETE", `/api/v1/namespaces/${NS}/configmaps?labelSelector=sweep%3Dyes`);
  expect(answer.status).toBe(200);
  expect(answer.body.kind).toBe("ConfigMapList");
  const versions = (list: Json) => list.items.map((item: Json) => `${item.metadata.name}@${item.metadata.resourceVersion}`);
  expect(versions(answer.body)).toEqual(versions(listed));
  for (const item of answer.body.items) {
    expect(Number(item.metadata.resourceVersion)).toBeLessThanOrEqual(Number(answer.body.metadata.resourceVersion));
  }
  expect((await getJson(server, `/api/v1/namespaces/${NS}/configmaps?labelSelector=sweep%3Dyes`)).items).toEqual([]);
});

test("a finalizer without a domain must be a standard one on core, apps and batch kinds, on create and update (core validateKubeFinalizerName)", async () => {
  const refused = await sendJson(server, "POST", `/api/v1/namespaces/${NS}/configmaps`, {
    metadata: { name: "bare-finalizer", finalizers: ["example.com/ok", "cleanup"] },
  });
  expect(refused.status).toBe(422);
  expect(refused.body).toMatchObject({
    reason: "Invalid",
    message:
      'ConfigMap "bare-finalizer" is invalid: metadata.finalizers[1]: Invalid value: "cleanup": name is neither a standard finalizer name nor is it fully qualified',
    details: { causes: [{ reason: "FieldValueInvalid", field: "metadata.finalizers[1]" }] },
  });
  const standard = { metadata: { name: "standard-finalizer", finalizers: ["orphan"] } };
  expect((await sendJson(server, "POST", `/api/v1/namespaces/${NS}/configmaps`, standard)).status).toBe(201);
  const patched = await sendJson(
    server,
    "PATCH",
    `/api/v1/namespaces/${NS}/configmaps/standard-finalizer`,
    { metadata: { finalizers: ["cleanup"] } },
    "application/merge-patch+json",
  );
  expect(patched.status).toBe(422);
  expect(patched.body.message).toContain('metadata.finalizers[0]: Invalid value: "cleanup": name is neither a standard finalizer name');
  const deployment = {
    metadata: { name: "bare-finalizer", finalizers: ["cleanup"] },
    spec: {
      selector: { matchLabels: { app: "bare" } },
      template: { metadata: { labels: { app: "bare" } }, spec: { containers: [{ name: "c", image: "nginx" }] } },
    },
  };
  const refusedDeployment = await sendJson(server, "POST", `/apis/apps/v1/namespaces/${NS}/deployments`, deployment);
  expect(refusedDeployment.status).toBe(422);
  expect(refusedDeployment.body.message).toBe(
    'Deployment.apps "bare-finalizer" is invalid: metadata.finalizers[0]: Invalid value: "cleanup": name is neither a standard finalizer name nor is it fully qualified',
  );
  const job = {
    metadata: { name: "bare-finalizer", finalizers: ["cleanup"] },
    spec: { template: { spec: { restartPolicy: "Never", containers: [{ name: "c", image: "busybox" }] } } },
  };
  const refusedJob = await sendJson(server, "POST", `/apis/batch/v1/namespaces/${NS}/jobs`, job);
  expect(refusedJob.status).toBe(422);
  expect(refusedJob.body.details.causes).toContainEqual({
    reason: "FieldValueInvalid",
    message: 'Invalid value: "cleanup": name is neither a standard finalizer name nor is it fully qualified',
    field: "metadata.finalizers[0]",
  });
});

test("a CRD's first DELETE adds only the cleanup finalizer and kube's Terminating condition, whatever propagation is asked (CRD REST Delete)", async () => {
  const crd = JSON.parse(exampleCrd({ plural: "sprockets", kind: "Sprocket" }, { type: "object" }));
  expect((await sendJson(server, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", crd)).status).toBe(201);
  const answer = await sendJson(
    server,
    "DELETE",
    "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/sprockets.example.com?propagationPolicy=Foreground",
  );
  expect(answer.status).toBe(200);
  expect(answer.body.metadata.finalizers).toEqual(["customresourcecleanup.apiextensions.k8s.io"]);
  expect("deletionGracePeriodSeconds" in answer.body.metadata).toBe(false);
  expect(answer.body.status.conditions).toContainEqual(expect.objectContaining({
    type: "Terminating",
    status: "True",
    reason: "InstanceDeletionPending",
    message: "CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon",
  }));
});

test("DeleteOptions come from the body when there is one, the query's being ignored (DeleteResource, DeleteCollection)", async () => {
  expect((await sendJson(server, "POST", `/api/v1/namespaces/${NS}/pods`, boundPod("body-wins"))).status).toBe(201);
  const answer = await sendJson(server, "DELETE", `${podPath("body-wins")}?gracePeriodSeconds=0`, {
    kind: "DeleteOptions",
    apiVersion: "v1",
  });
  expect(answer.status).toBe(200);
  expect(answer.body.metadata.deletionGracePeriodSeconds).toBe(30);

  const made = await sendJson(server, "POST", `/api/v1/namespaces/${NS}/configmaps`, {
    metadata: { name: "body-sweep", labels: { body: "yes" } },
  });
  expect(made.status).toBe(201);
  const swept = await sendJson(server, "DELETE", `/api/v1/namespaces/${NS}/configmaps?labelSelector=body%3Dyes&dryRun=All`, {});
  expect(swept.status).toBe(200);
  expect((await sendJson(server, "GET", `/api/v1/namespaces/${NS}/configmaps/body-sweep`)).status).toBe(404);
});

test("every DeleteOptions error is reported in one 422, the dryRun list as Go prints it (ValidateDeleteOptions, ValidateDryRun)", async () => {
  const made = await sendJson(server, "POST", `/api/v1/namespaces/${NS}/configmaps`, { metadata: { name: "kept-options" } });
  expect(made.status).toBe(201);
  const refused = await sendJson(server, "DELETE", `/api/v1/namespaces/${NS}/configmaps/kept-options`, {
    orphanDependents: true,
    propagationPolicy: "Sometimes",
    dryRun: ["Maybe"],
  });
  expect(refused.status).toBe(422);
  expect(refused.body.message).toBe(
    'DeleteOptions.meta.k8s.io "" is invalid: [propagationPolicy: Invalid value: "Sometimes": orphanDependents and deletionPropagation cannot be both set, propagationPolicy: Unsupported value: "Sometimes": supported values: "Foreground", "Background", "Orphan", "nil", dryRun: Unsupported value: []string{"Maybe"}: supported values: "All"]',
  );
  expect((await getJson(server, `/api/v1/namespaces/${NS}/configmaps/kept-options`)).metadata.uid).toBe(made.body.metadata.uid);
});
