/**
 * Several warnings leave as several Warning fields: kube's recorder.AddWarning (k8s.io/apiserver endpoints/filters
 * warning.go) calls `w.Header().Add("Warning", ...)` once per warning, which Go writes as one header line each over
 * HTTP/1.1 and one header field each over HTTP/2.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { connect as http2Connect } from "node:http2";
import { readCredentials, startServer, type TestServer } from "./harness.ts";
import { rawExchange } from "./_raw-request.ts";

const UNDER_DENO = "Deno" in globalThis;
const CONFIGMAPS = "/api/v1/namespaces/default/configmaps";
/** A ConfigMap with three unknown fields, one whose name holds a comma (a comma inside the warn-text's quotes). */
function body(name: string): string {
  return JSON.stringify({ apiVersion: "v1", kind: "ConfigMap", metadata: { name }, "a,b": 1, c: 2, d: 3 });
}
const EXPECTED = ['299 - "unknown field \\"a,b\\""', '299 - "unknown field \\"c\\""', '299 - "unknown field \\"d\\""'];
let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});

test("HTTP/1.1: one Warning header line per warning (recorder.AddWarning's Header().Add)", async () => {
  const { hostname, port } = new URL(server.url);
  const text = body("over-http1");
  const reply = await rawExchange(
    server,
    `POST ${CONFIGMAPS} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
  );
  const head = reply.subarray(0, reply.indexOf("\r\n\r\n")).toString().split("\r\n");
  expect(head[0]).toStartWith("HTTP/1.1 201");
  const warnings = head.filter((line) => /^warning:/i.test(line)).map((line) => line.slice(line.indexOf(":") + 1).trim());
  expect(warnings).toEqual(EXPECTED);
});

test.skipIf(UNDER_DENO)("HTTP/2: one Warning field per warning (recorder.AddWarning's Header().Add)", async () => {
  const credentials = readCredentials(readFileSync(server.kubeconfig, "utf8"));
  const session = http2Connect(credentials.url, { ca: credentials.ca, cert: credentials.cert, key: credentials.key });
  try {
    const raw = await new Promise<string[]>((resolve, reject) => {
      const stream = session.request({ ":method": "POST", ":path": CONFIGMAPS, "content-type": "application/json" });
      let fields: string[] = [];
      stream.on("response", (_headers, _flags, rawHeaders: string[]) => (fields = rawHeaders));
      stream.on("data", () => {});
      stream.on("end", () => resolve(fields));
      stream.on("error", reject);
      stream.end(body("over-http2"));
    });
    const warnings = raw.filter((_, i) => i % 2 === 1 && raw[i - 1]!.toLowerCase() === "warning");
    expect(warnings).toEqual(EXPECTED);
  } finally {
    session.close();
  }
});

test("kubectl 1.32 prints each warning once", async () => {
  const result = await server.kubectl(["create", "--validate=warn", "-f", "-"], { stdin: body("over-kubectl") });
  expect(result.code).toBe(0);
  expect(result.stderr.trim().split("\n")).toEqual([
    'Warning: unknown field "a,b"',
    'Warning: unknown field "c"',
    'Warning: unknown field "d"',
  ]);
});
