/** Every APIService endpoint of spec 4.9 with its status codes (apiregistration.k8s.io/v1, cluster-scoped). */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { expectStatus, getJson, sendJson } from "./_api.ts";
import { startServer, type TestServer } from "./harness.ts";

const BASE = "/apis/apiregistration.k8s.io/v1/apiservices";
let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

/** A local APIService (no service): handled by this server, as the built-in ones are. */
const apiService = (version: string) => ({
  apiVersion: "apiregistration.k8s.io/v1",
  kind: "APIService",
  metadata: { name: `${version}.widgets.example.com` },
  spec: { group: "widgets.example.com", version, groupPriorityMinimum: 1000, versionPriority: 15 },
});

test("create answers 201 with the APIService; get, get status and list answer 200", async () => {
  const created = await sendJson(server, "POST", BASE, apiService("v1"));
  expect(created.status).toBe(201);
  expect(created.body).toMatchObject({ kind: "APIService", metadata: { name: "v1.widgets.example.com" } });
  const item = await sendJson(server, "GET", `${BASE}/v1.widgets.example.com`);
  expect([item.status, item.body.kind]).toEqual([200, "APIService"]);
  const status = await sendJson(server, "GET", `${BASE}/v1.widgets.example.com/status`);
  expect([status.status, status.body.kind]).toEqual([200, "APIService"]);
  const list = await getJson(server, BASE);
  expect(list.kind).toBe("APIServiceList");
  expect(list.items.map((i: { metadata: { name: string } }) => i.metadata.name)).toContain("v1.widgets.example.com");
});

test("list with watch streams the APIService events", async () => {
  const response = await server.request("GET", `${BASE}?watch=1&fieldSelector=metadata.name%3Dv1.widgets.example.com&timeoutSeconds=1`);
  expect(response.status).toBe(200);
  expect(await response.text()).toContain('"type":"ADDED"');
});

test("replace and replace status answer 200; status writes change only status", async () => {
  const current = await getJson(server, `${BASE}/v1.widgets.example.com`);
  const replaced = await sendJson(server, "PUT", `${BASE}/v1.widgets.example.com`, {
    ...current,
    spec: { ...current.spec, versionPriority: 20 },
  });
  expect([replaced.status, replaced.body.spec.versionPriority]).toEqual([200, 20]);
  const condition = {
    type: "Available",
    status: "False",
    reason: "Testing",
    message: "set by a test",
    lastTransitionTime: "2026-01-01T00:00:00Z",
  };
  const statusWrite = await sendJson(server, "PUT", `${BASE}/v1.widgets.example.com/status`, {
    ...replaced.body,
    spec: { ...replaced.body.spec, versionPriority: 99 },
    status: { conditions: [condition] },
  });
  expect(statusWrite.status).toBe(200);
  expect(statusWrite.body.spec.versionPriority).toBe(20);
});

test("patch and patch status answer 200", async () => {
  const patched = await sendJson(
    server,
    "PATCH",
    `${BASE}/v1.widgets.example.com`,
    { spec: { versionPriority: 30 } },
    "application/merge-patch+json",
  );
  expect([patched.status, patched.body.spec.versionPriority]).toEqual([200, 30]);
  const statusPatch = await sendJson(
    server,
    "PATCH",
    `${BASE}/v1.widgets.example.com/status`,
    { spec: { versionPriority: 1 } },
    "application/merge-patch+json",
  );
  expect([statusPatch.status, statusPatch.body.spec.versionPriority]).toEqual([200, 30]);
});

test("an invalid APIService is refused with 422 and a missing one is 404", async () => {
  expectStatus(await sendJson(server, "POST", BASE, { ...apiService("v2"), metadata: { name: "wrong.name" } }), 422, "Invalid");
  expectStatus(
    await sendJson(server, "GET", `${BASE}/v9.nowhere.example.com`),
    404,
    "NotFound",
    'apiservices.apiregistration.k8s.io "v9.nowhere.example.com" not found',
  );
});

test("delete answers 200 with a Status; delete collection answers 200 with the list of what it deleted", async () => {
  const deleted = await sendJson(server, "DELETE", `${BASE}/v1.widgets.example.com`);
  expect([deleted.status, deleted.body.kind, deleted.body.status]).toEqual([200, "Status", "Success"]);
  expect(
    (await sendJson(server, "POST", BASE, {
      ...apiService("v2"),
      metadata: { name: "v2.widgets.example.com", labels: { test: "apiservices" } },
    })).status,
  ).toBe(201);
  const collection = await sendJson(server, "DELETE", `${BASE}?labelSelector=test%3Dapiservices`);
  expect(collection.status).toBe(200);
  expect(collection.body.items.map((i: { metadata: { name: string } }) => i.metadata.name)).toEqual(["v2.widgets.example.com"]);
});

test("every operation answers 401 without credentials", async () => {
  for (const [method, path] of [["GET", BASE], ["GET", `${BASE}/v1.`], ["POST", BASE], ["DELETE", `${BASE}/v1.`]]) {
    const response = await server.requestAnonymous(method, path);
    expect({ method, path, status: response.status }).toEqual({ method, path, status: 401 });
  }
});
