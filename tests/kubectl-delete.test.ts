/** kubectl delete as kube-apiserver 1.26 answers it: grace periods per kind, DeleteOptions bodies, what DELETE returns. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createNamespace, sendJson } from "./_api.ts";
import { startServer, type TestServer } from "./harness.ts";
import { kubectlOk } from "./_kubectl.ts";

const NS = "deletes";
let server: TestServer;

beforeAll(async () => {
  server = await startServer();
  await createNamespace(server, NS);
});
afterAll(() => server.stop());

const pod = (name: string, nodeName?: string) => ({
  apiVersion: "v1",
  kind: "Pod",
  metadata: { name },
  spec: { containers: [{ name: "c", image: "nginx" }], ...(nodeName ? { nodeName } : {}) },
});

test("kubectl delete --grace-period of a ConfigMap removes it at once: only pods delete gracefully (rest.BeforeDelete)", async () => {
  await kubectlOk(server, ["-n", NS, "create", "configmap", "graceful"]);
  expect(await kubectlOk(server, ["-n", NS, "delete", "configmap", "graceful", "--grace-period=10", "--wait=false"])).toBe('configmap "graceful" deleted\n');
  expect((await server.request("GET", `/api/v1/namespaces/${NS}/configmaps/graceful`)).status).toBe(404);
});

test("kubectl delete --now of an unscheduled pod returns with the pod gone (pod CheckGracefulDelete forces 0)", async () => {
  expect((await sendJson(server, "POST", `/api/v1/namespaces/${NS}/pods`, pod("pending"))).status).toBe(201);
  expect(await kubectlOk(server, ["-n", NS, "delete", "pod", "pending", "--now"])).toBe('pod "pending" deleted\n');
  expect((await server.request("GET", `/api/v1/namespaces/${NS}/pods/pending`)).status).toBe(404);
});

test("kubectl delete --grace-period of a finished pod returns with the pod gone (pod CheckGracefulDelete forces 0)", async () => {
  expect((await sendJson(server, "POST", `/api/v1/namespaces/${NS}/pods`, pod("finished", "node-a"))).status).toBe(201);
  const status = await sendJson(server, "PATCH", `/api/v1/namespaces/${NS}/pods/finished/status`, { status: { phase: "Succeeded" } }, "application/merge-patch+json");
  expect(status.status).toBe(200);
  expect(await kubectlOk(server, ["-n", NS, "delete", "pod", "finished", "--grace-period=30"])).toBe('pod "finished" deleted\n');
  expect((await server.request("GET", `/api/v1/namespaces/${NS}/pods/finished`)).status).toBe(404);
});

test("DELETE with a grace period of a scheduled running pod keeps it terminating with that grace period", async () => {
  expect((await sendJson(server, "POST", `/api/v1/namespaces/${NS}/pods`, pod("running", "node-a"))).status).toBe(201);
  const answer = await sendJson(server, "DELETE", `/api/v1/namespaces/${NS}/pods/running`, { kind: "DeleteOptions", apiVersion: "v1", gracePeriodSeconds: 45 });
  expect(answer.status).toBe(200);
  expect(answer.body.metadata).toMatchObject({ deletionGracePeriodSeconds: 45 });
  expect(answer.body.metadata.deletionTimestamp).toBeDefined();
});
