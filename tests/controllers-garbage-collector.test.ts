/**
 * What the garbage collector does to the dependents of an owner deleted in the foreground, as kube-controller-
 * manager's attemptToDeleteItem and classifyReferences decide it, seen over HTTP.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createNamespace, getJson, type Json, openWatch, sendJson } from "./_api.ts";
import { until } from "./_held-requests.ts";
import { startServer, type TestServer } from "./harness.ts";

const NS = "collected";
const CONFIGMAPS = `/api/v1/namespaces/${NS}/configmaps`;
let server: TestServer;

beforeAll(async () => {
  server = await startServer();
  await createNamespace(server, NS);
});
afterAll(() => server.stop());

async function create(name: string, metadata: Json = {}): Promise<Json> {
  const answer = await sendJson(server, "POST", CONFIGMAPS, { metadata: { name, ...metadata } });
  expect(answer.status).toBe(201);
  return answer.body;
}

const ownedBy = (owner: Json, blockOwnerDeletion = true) => ({
  apiVersion: "v1",
  kind: "ConfigMap",
  name: owner.metadata.name,
  uid: owner.metadata.uid,
  blockOwnerDeletion,
});
const exists = async (name: string) => (await sendJson(server, "GET", `${CONFIGMAPS}/${name}`)).status === 200;
const release = (name: string) =>
  sendJson(server, "PATCH", `${CONFIGMAPS}/${name}`, { metadata: { finalizers: null } }, "application/merge-patch+json");

test("a dependent with no dependents of its own is deleted in the background while its owner waits in the foreground (attemptToDeleteItem)", async () => {
  const owner = await create("fg-owner");
  const leaf = await create("fg-leaf", { finalizers: ["example.com/hold"], ownerReferences: [ownedBy(owner)] });
  const watch = await openWatch(
    server,
    `${CONFIGMAPS}?watch=true&fieldSelector=metadata.name%3Dfg-leaf&resourceVersion=${leaf.metadata.resourceVersion}`,
  );
  expect((await sendJson(server, "DELETE", `${CONFIGMAPS}/fg-owner?propagationPolicy=Foreground`)).status).toBe(200);
  const [marked] = (await watch.until((event) => (event.object as Json).metadata.deletionTimestamp !== undefined)).slice(-1);
  await watch.close();
  // Deleted with Foreground, it would carry foregroundDeletion too.
  expect((marked.object as Json).metadata.finalizers).toEqual(["example.com/hold"]);
  expect((await getJson(server, `${CONFIGMAPS}/fg-owner`)).metadata.finalizers).toEqual(["foregroundDeletion"]);
  expect((await release("fg-leaf")).status).toBe(200);
  await until(async () => !(await exists("fg-owner")));
});

test("a dependent another owner still holds loses its reference to the owner deleting in the foreground, which then goes (classifyReferences)", async () => {
  const leaving = await create("fg-leaving");
  const staying = await create("fg-staying");
  await create("fg-shared", { ownerReferences: [ownedBy(leaving), ownedBy(staying, false)] });
  expect((await sendJson(server, "DELETE", `${CONFIGMAPS}/fg-leaving?propagationPolicy=Foreground`)).status).toBe(200);
  await until(async () => !(await exists("fg-leaving")));
  const shared = await getJson(server, `${CONFIGMAPS}/fg-shared`);
  expect(shared.metadata.deletionTimestamp).toBeUndefined();
  expect(shared.metadata.ownerReferences.map((ref: Json) => ref.name)).toEqual(["fg-staying"]);
});

test("a dependent already being deleted is left to that deletion when its owner is deleted in the foreground (attemptToDeleteItem)", async () => {
  const owner = await create("fg-owner-2");
  await create("fg-ending", { finalizers: ["example.com/hold"], ownerReferences: [ownedBy(owner)] });
  const ending = await sendJson(server, "DELETE", `${CONFIGMAPS}/fg-ending`);
  expect(ending.status).toBe(200);
  const watch = await openWatch(
    server,
    `${CONFIGMAPS}?watch=true&fieldSelector=metadata.name%3Dfg-ending&resourceVersion=${ending.body.metadata.resourceVersion}`,
  );
  expect((await sendJson(server, "DELETE", `${CONFIGMAPS}/fg-owner-2?propagationPolicy=Foreground`)).status).toBe(200);
  // A later owner's dependent collected means the collector has been through the earlier changes.
  const marker = await create("fg-marker", { ownerReferences: [ownedBy(await create("fg-gone"))] });
  expect((await sendJson(server, "DELETE", `${CONFIGMAPS}/fg-gone`)).status).toBe(200);
  await until(async () => !(await exists(marker.metadata.name)));
  expect((await release("fg-ending")).status).toBe(200);
  const events = await watch.until((event) => event.type === "DELETED");
  await watch.close();
  expect(events.map((event) => (event.object as Json).metadata.finalizers ?? [])).not.toContainEqual(
    expect.arrayContaining(["foregroundDeletion"]),
  );
  await until(async () => !(await exists("fg-owner-2")));
});
