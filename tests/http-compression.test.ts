/**
 * Response compression (APIResponseCompression; kube's deferredResponseWriter): an answer over 128 KiB is gzipped
 * for a client whose Accept-Encoding names gzip, a smaller one is not, watches never are, and
 * --feature-gates=APIResponseCompression=false turns it off (tests/feature-gates.test.ts). The same list shows the
 * default-on RemainingItemCount gate. Status errors are written by the same writer (ErrorNegotiated), and a HEAD gets
 * the headers of its GET.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { connect as http2Connect, type IncomingHttpHeaders } from "node:http2";
import { gunzipSync } from "node:zlib";
import { createNamespace, sendJson } from "./_api.ts";
import { rawGet, rawSend } from "./_raw-request.ts";
import { readCredentials, startServer, type TestServer } from "./harness.ts";

const NS = "gzip";
const COLLECTION = `/api/v1/namespaces/${NS}/configmaps`;
/** The three large ConfigMaps, without the namespace's kube-root-ca.crt. */
const LARGE = `${COLLECTION}?labelSelector=size%3Dlarge`;
/** A name whose NotFound Status (it names it twice) is over the threshold. */
const MISSING = `${COLLECTION}/${"b".repeat(150_000)}`;
const UNDER_DENO = process.env.KUBUN_TEST_RUNTIME === "deno";
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

/** The Status in a gzipped answer, after checking the headers deferredResponseWriter sets. */
function gunzippedStatus(answer: { headers: Map<string, string>; body: Buffer }): { code: number; reason: string } {
  expect(answer.headers.get("content-encoding")).toBe("gzip");
  expect(answer.headers.get("vary")).toBe("Accept-Encoding");
  return JSON.parse(gunzipSync(answer.body).toString());
}

test("ErrorNegotiated → SerializeObject: a NotFound Status over 128 KiB, of a GET and of a PATCH, is gzipped", async () => {
  const got = await rawSend(server, "GET", MISSING, "gzip");
  expect(got.status).toBe(404);
  expect(gunzippedStatus(got)).toMatchObject({ code: 404, reason: "NotFound" });
  const patched = await rawSend(server, "PATCH", MISSING, "gzip", { contentType: "application/merge-patch+json", text: "{}" });
  expect(patched.status).toBe(404);
  expect(gunzippedStatus(patched)).toMatchObject({ code: 404, reason: "NotFound" });
});

test("ErrorNegotiated → SerializeObject: a create's Invalid Status over 128 KiB is gzipped, dry run too", async () => {
  const longName = { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "n".repeat(200_000) } };
  const named = await rawSend(server, "POST", COLLECTION, "gzip", { contentType: "application/json", text: JSON.stringify(longName) });
  expect(named.status).toBe(422);
  expect(gunzippedStatus(named)).toMatchObject({ code: 422, reason: "Invalid" });
  const labels = Object.fromEntries(Array.from({ length: 3000 }, (_, i) => [`bad key ${i}`, "v"]));
  const badLabels = { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "labelled", labels } };
  const dryRun = await rawSend(server, "POST", `${COLLECTION}?dryRun=All`, "gzip", {
    contentType: "application/json",
    text: JSON.stringify(badLabels),
  });
  expect(dryRun.status).toBe(422);
  expect(gunzippedStatus(dryRun)).toMatchObject({ code: 422, reason: "Invalid" });
  expect((await server.request("GET", `${COLLECTION}/labelled`)).status).toBe(404);
});

test("HEAD over HTTP/1.1 (net/http drops what the GET handler writes): the GET's headers, Content-Encoding: gzip included", async () => {
  const list = await rawSend(server, "HEAD", LARGE, "gzip");
  expect(list.status).toBe(200);
  expect([list.headers.get("content-encoding"), list.headers.get("vary")]).toEqual(["gzip", "Accept-Encoding"]);
  expect(list.body.byteLength).toBe(0);
  const missing = await rawSend(server, "HEAD", MISSING, "gzip");
  expect(missing.status).toBe(404);
  expect(missing.headers.get("content-encoding")).toBe("gzip");
  expect(missing.body.byteLength).toBe(0);
  const small = await rawSend(server, "HEAD", `${COLLECTION}/a`, "gzip");
  expect(small.status).toBe(200);
  expect(small.headers.has("content-encoding")).toBe(false);
  expect((await rawSend(server, "HEAD", LARGE, "identity")).headers.has("content-encoding")).toBe(false);
});

test.skipIf(UNDER_DENO)("HEAD over HTTP/2 carries the GET's Content-Encoding: gzip and no body", async () => {
  const credentials = readCredentials(readFileSync(server.kubeconfig, "utf8"));
  const session = http2Connect(credentials.url, { ca: credentials.ca, cert: credentials.cert, key: credentials.key });
  try {
    const { headers, bytes } = await new Promise<{ headers: IncomingHttpHeaders; bytes: number }>((resolve, reject) => {
      const stream = session.request({ ":method": "HEAD", ":path": LARGE, "accept-encoding": "gzip" });
      let headers: IncomingHttpHeaders = {};
      let bytes = 0;
      stream.on("response", (received) => (headers = received));
      stream.on("data", (chunk: Buffer) => (bytes += chunk.byteLength));
      stream.on("end", () => resolve({ headers, bytes }));
      stream.on("error", reject);
    });
    expect(Number(headers[":status"])).toBe(200);
    expect(headers["content-encoding"]).toBe("gzip");
    expect(bytes).toBe(0);
  } finally {
    session.close();
  }
});

/** The response headers of an HTTP/2 GET that sends this Accept-Encoding value as is. */
async function http2Headers(path: string, acceptEncoding: string): Promise<IncomingHttpHeaders> {
  const credentials = readCredentials(readFileSync(server.kubeconfig, "utf8"));
  const session = http2Connect(credentials.url, { ca: credentials.ca, cert: credentials.cert, key: credentials.key });
  try {
    return await new Promise<IncomingHttpHeaders>((resolve, reject) => {
      const stream = session.request({ ":method": "GET", ":path": path, "accept-encoding": acceptEncoding });
      let headers: IncomingHttpHeaders = {};
      stream.on("response", (received) => (headers = received));
      stream.resume();
      stream.on("end", () => resolve(headers));
      stream.on("error", reject);
    });
  } finally {
    session.close();
  }
}

test.skipIf(UNDER_DENO)(
  "negotiateContentEncoding trims each token (strings.TrimSpace): `gzip ` is gzip over HTTP/2 as over HTTP/1.1",
  async () => {
    for (const value of ["gzip ", " gzip", "deflate, gzip \t", "gzip\t"]) {
      expect({ value, encoding: (await http2Headers(LARGE, value))["content-encoding"] }).toEqual({ value, encoding: "gzip" });
      expect({ value, encoding: (await rawGet(server, LARGE, value)).headers.get("content-encoding") }).toEqual({
        value,
        encoding: "gzip",
      });
    }
    for (const value of ["gzip;q=1", "x-gzip", "gzipx "]) {
      expect({ value, encoding: (await http2Headers(LARGE, value))["content-encoding"] }).toEqual({ value, encoding: undefined });
    }
  },
);
