/**
 * kube's WithMaxInFlightLimit against the compiled server with --enable-priority-and-fairness=false and limits of
 * one read-only and one mutating request: a second mutating request gets 429 while one is held in a webhook, and
 * system:masters is still served.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startServer, type TestServer } from "./harness.ts";
import { sendJson } from "./_api.ts";
import { createConfigMapAs, type HeldRequests, holdConfigMapCreates, until } from "./_held-requests.ts";

let server: TestServer;
let held: HeldRequests;

beforeAll(async () => {
  server = await startServer(["--enable-priority-and-fairness=false", "--max-requests-inflight=1", "--max-mutating-requests-inflight=1"]);
  held = await holdConfigMapCreates(server, "inflight");
});

afterAll(async () => {
  await held?.close();
  await server?.stop();
});

test("over the mutating limit: 429 with Retry-After 1 and kube's text; system:masters and read-only requests still served", async () => {
  const first = createConfigMapAs(server, "alice", "held", "inflight");
  await until(() => held.hook.calls.length === 1);

  const rejected = await createConfigMapAs(server, "alice", "second");
  expect(rejected.status).toBe(429);
  expect(rejected.headers.get("Retry-After")).toBe("1");
  expect(rejected.headers.get("Content-Type")).toBe("text/plain; charset=utf-8");
  expect(await rejected.text()).toBe("Too many requests, please try again later.\n");
  expect(rejected.headers.get("X-Kubernetes-PF-FlowSchema-UID")).toBeNull();
  // kube's WithMaxInFlightLimit records the refusal (RecordRequestTermination).
  expect(await (await server.request("GET", "/metrics")).text()).toContain(
    'apiserver_request_terminations_total{verb="POST",group="",version="v1",resource="configmaps",subresource="",scope="namespace",component="apiserver",code="429"} 1',
  );

  // kube's WithMaxInFlightLimit serves system:masters even over the limit.
  expect((await sendJson(server, "POST", "/api/v1/namespaces/default/configmaps", { metadata: { name: "by-admin" }, data: {} })).status)
    .toBe(201);
  // get, list and watch count against the other limit.
  expect((await server.request("GET", "/api/v1/namespaces/default/configmaps", { headers: { "Impersonate-User": "alice" } })).status).toBe(
    200,
  );

  held.release();
  expect((await first).status).toBe(201);
  expect((await createConfigMapAs(server, "alice", "after")).status).toBe(201);
});
