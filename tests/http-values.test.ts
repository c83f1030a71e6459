/**
 * Values written back as kube's JSON marshalling writes them: metav1.Time in UTC whole seconds, metav1.MicroTime
 * in UTC with six fraction digits (their MarshalJSON), whatever offset and precision the client sent.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createNamespace, getJson, sendJson } from "./_api.ts";
import { startServer, type TestServer } from "./harness.ts";

let server: TestServer;
const NS = "values";

beforeAll(async () => {
  server = await startServer();
  await createNamespace(server, NS);
});
afterAll(async () => {
  await server?.stop();
});

test("Time and MicroTime fields are stored and answered in UTC at their own precision (metav1.Time/MicroTime MarshalJSON)", async () => {
  const lease = {
    apiVersion: "coordination.k8s.io/v1",
    kind: "Lease",
    metadata: { name: "clock" },
    spec: { holderIdentity: "me", acquireTime: "2024-05-01T12:00:00.123456+02:00", renewTime: "2024-05-01T10:00:00.123456Z" },
  };
  const path = `/apis/coordination.k8s.io/v1/namespaces/${NS}/leases`;
  const created = await sendJson(server, "POST", path, lease);
  expect(created.status).toBe(201);
  expect(created.body.spec).toMatchObject({ acquireTime: "2024-05-01T10:00:00.123456Z", renewTime: "2024-05-01T10:00:00.123456Z" });
  expect((await getJson(server, `${path}/clock`)).spec.acquireTime).toBe("2024-05-01T10:00:00.123456Z");

  const event = {
    apiVersion: "v1",
    kind: "Event",
    metadata: { name: "happened" },
    involvedObject: { kind: "Lease", name: "clock", namespace: NS },
    reason: "Test",
    firstTimestamp: "2024-05-01T05:30:00.999-04:30",
    lastTimestamp: "2024-05-01T10:00:00Z",
  };
  const stored = await sendJson(server, "POST", `/api/v1/namespaces/${NS}/events`, event);
  expect(stored.status).toBe(201);
  expect([stored.body.firstTimestamp, stored.body.lastTimestamp]).toEqual(["2024-05-01T10:00:00Z", "2024-05-01T10:00:00Z"]);
  const patched = await sendJson(server, "PATCH", `/api/v1/namespaces/${NS}/events/happened`, { lastTimestamp: "2024-05-01T11:00:00+01:00" }, "application/merge-patch+json");
  expect(patched.body.lastTimestamp).toBe("2024-05-01T10:00:00Z");
});
