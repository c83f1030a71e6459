/**
 * --request-timeout and the `timeout` parameter (kube's WithRequestDeadline and
 * WithTimeoutForNonLongRunningRequests): a request that has not been answered in time gets a 504 Status; a
 * malformed `timeout` is a 400; watches are long-running and outlive the deadline.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFile } from "node:fs/promises";
import { createNamespace, openWatch } from "./_api.ts";
import { readCredentials, startServer, type TestServer } from "./harness.ts";

let server: TestServer;

beforeAll(async () => {
  server = await startServer(["--request-timeout", "2s"]);
  await createNamespace(server, "deadline");
});

afterAll(async () => {
  await server?.stop();
});

/** A POST whose body never finishes, so only the deadline can end it. */
async function stalledCreate(path: string): Promise<Response> {
  const { ca, cert, key } = readCredentials(await readFile(server.kubeconfig, "utf8"));
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode('{"apiVersion":"v1","kind":"ConfigMap",'));
    },
  });
  return await fetch(server.url + path, {
    method: "POST",
    body,
    headers: { "Content-Type": "application/json" },
    tls: { ca, cert, key },
  });
}

test("WithTimeoutForNonLongRunningRequests: a request still unanswered at --request-timeout gets kube's 504 Status", async () => {
  const response = await stalledCreate("/api/v1/namespaces/deadline/configmaps");
  expect(response.status).toBe(504);
  expect(JSON.parse(await response.text())).toEqual({
    metadata: {},
    status: "Failure",
    message: "Timeout: request did not complete within the allotted timeout",
    reason: "Timeout",
    details: {},
    code: 504,
  });
});

test("WithRequestDeadline: a shorter timeout parameter is the request's deadline", async () => {
  const response = await stalledCreate("/api/v1/namespaces/deadline/configmaps?timeout=500ms");
  expect(response.status).toBe(504);
  expect((await response.json()).reason).toBe("Timeout");
});

test("WithRequestDeadline parseTimeout: a malformed timeout parameter is a 400 and creates nothing", async () => {
  const response = await server.request("POST", "/api/v1/namespaces/deadline/configmaps?timeout=soon", {
    body: JSON.stringify({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "never" } }),
    headers: { "Content-Type": "application/json" },
  });
  expect(response.status).toBe(400);
  const status = await response.json();
  expect(status.reason).toBe("BadRequest");
  expect(status.message).toBe('invalid timeout specified in the request URL - time: invalid duration "soon"');
  expect((await server.request("GET", "/api/v1/namespaces/deadline/configmaps/never")).status).toBe(404);
});

test("BasicLongRunningRequestCheck: a watch is not cut at --request-timeout", async () => {
  const watch = await openWatch(
    server,
    "/api/v1/namespaces/deadline/configmaps?watch=1&timeoutSeconds=4&fieldSelector=metadata.name%3Dlate",
  );
  await Bun.sleep(2_500);
  await server.request("POST", "/api/v1/namespaces/deadline/configmaps", {
    body: JSON.stringify({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "late" } }),
    headers: { "Content-Type": "application/json" },
  });
  const event = await watch.next();
  expect({ type: event?.type, name: event?.object.metadata.name }).toEqual({ type: "ADDED", name: "late" });
  await watch.close();
});
