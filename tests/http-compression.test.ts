/**
 * Response compression (APIResponseCompression; kube's deferredResponseWriter): an answer over 128 KiB is gzipped
 * for a client whose Accept-Encoding names gzip, a smaller one is not, watches never are, and
 * --feature-gates=APIResponseCompression=false turns it off (tests/feature-gates.test.ts). The same list shows the
 * default-on RemainingItemCount gate.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { gunzipSync } from "node:zlib";
import { createNamespace, sendJson } from "./_api.ts";
import { rawGet } from "./_raw-request.ts";
import { startServer, type TestServer } from "./harness.ts";

const NS = "gzip";
const COLLECTION = `/api/v1/namespaces/${NS}/configmaps`;
/** The three large ConfigMaps, without the namespace's kube-root-ca.crt. */
const LARGE = `${COLLECTION}?labelSelector=size%3Dlarge`;
let server: TestServer;

beforeAll(async () => {
  server = await startServer();
  await createNamespace(server, NS);
  // Three ConfigMaps of 60 KiB: the list is over the 128 KiB threshold, each one alone is under it.
  for (const name of ["a", "b", "c"]) {
    const created = await sendJson(server, "POST", COLLECTION, {
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name, labels: { size: "large" } },
      data: { blob: "x".repeat(60 * 1024) },
    });
    expect(created.status).toBe(201);
  }
});

afterAll(async () => {
  await server?.stop();
});

test("deferredResponseWriter: a list over 128 KiB is gzipped with Vary: Accept-Encoding when the client accepts gzip", async () => {
  const answer = await rawGet(server, LARGE, "gzip");
  expect(answer.status).toBe(200);
  expect(answer.headers.get("content-encoding")).toBe("gzip");
  expect(answer.headers.get("vary")).toBe("Accept-Encoding");
  const list = JSON.parse(gunzipSync(answer.body).toString());
  expect(list.items.map((item: { metadata: { name: string } }) => item.metadata.name)).toEqual(["a", "b", "c"]);
});

test("deferredResponseWriter: an answer under the threshold, or to a client not naming gzip, goes out as is", async () => {
  const small = await rawGet(server, `${COLLECTION}/a`, "gzip");
  expect(small.headers.has("content-encoding")).toBe(false);
  expect(JSON.parse(small.body.toString()).metadata.name).toBe("a");
  const identity = await rawGet(server, LARGE, "identity");
  expect(identity.headers.has("content-encoding")).toBe(false);
  expect(JSON.parse(identity.body.toString()).items).toHaveLength(3);
});

test("negotiateContentEncoding: gzip is found among several tokens", async () => {
  expect((await rawGet(server, LARGE, "deflate, gzip")).headers.get("content-encoding")).toBe("gzip");
});

test("kubectl reads the gzipped list (Go's transport asks for gzip and unzips)", async () => {
  const result = await server.kubectl(["get", "configmaps", "-n", NS, "-l", "size=large", "-o", "name", "-v=8"]);
  expect(result.code).toBe(0);
  expect(result.stdout.trim().split("\n")).toEqual(["configmap/a", "configmap/b", "configmap/c"]);
  // Go's transport removes Content-Encoding once it has unzipped the body; the Vary header stays in -v=8's log.
  expect(/Vary: Accept-Encoding/.test(result.stderr)).toBe(true);
});

test("a watch is a stream and is never gzipped", async () => {
  const answer = await rawGet(server, `${LARGE}&watch=1&timeoutSeconds=1`, "gzip");
  expect(answer.headers.has("content-encoding")).toBe(false);
  expect(answer.body.toString()).toContain('"type":"ADDED"');
});

test("GetList with the RemainingItemCount gate on (1.26's default): a paged list reports the items left", async () => {
  const page = await (await server.request("GET", `${COLLECTION}?limit=1`)).json();
  expect(page.metadata.continue).toBeTruthy();
  expect(page.metadata.remainingItemCount).toBe(3);
});
