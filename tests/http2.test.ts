/**
 * HTTP/2 over TLS with client-certificate identity, as kube-apiserver serves it (secure_serving.go configures Go's
 * http2 server): kubectl negotiates h2 by ALPN, and many watches share one connection as client-go's do.
 * Under Deno the server offers HTTP/1.1 only (see core/runtime/listener.ts), so these tests are Bun's.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { type ClientHttp2Session, type ClientHttp2Stream, connect as http2Connect } from "node:http2";
import { KUBECTL } from "./_kubectl-stream.ts";
import { readCredentials, startServer, type TestServer } from "./harness.ts";

const UNDER_DENO = process.env.KUBUN_TEST_RUNTIME === "deno";
let server: TestServer;

beforeAll(async () => (server = await startServer()));
afterAll(() => server?.stop());

function adminSession(): ClientHttp2Session {
  const credentials = readCredentials(readFileSync(server.kubeconfig, "utf8"));
  return http2Connect(credentials.url, { ca: credentials.ca, cert: credentials.cert, key: credentials.key });
}

/** kubectl with Go's http2 debug log on (GODEBUG=http2debug=1), which names every HTTP/2 request it sends. */
function kubectlLoggingHttp2(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      KUBECTL,
      ["--kubeconfig", server.kubeconfig, ...args],
      { env: { ...process.env, GODEBUG: "http2debug=1" }, timeout: 30_000 },
      (error, stdout, stderr) => resolve({ code: error ? 1 : 0, stdout, stderr }),
    );
  });
}

/** Lines of a watch stream as they arrive. */
function watchLines(stream: ClientHttp2Stream): { lines: string[]; status: Promise<number> } {
  const lines: string[] = [];
  let pending = "";
  stream.setEncoding("utf8");
  stream.on("data", (chunk: string) => {
    pending += chunk;
    const parts = pending.split("\n");
    pending = parts.pop()!;
    lines.push(...parts.filter((line) => line.length > 0));
  });
  const status = new Promise<number>((resolve) => stream.once("response", (headers) => resolve(Number(headers[":status"]))));
  return { lines, status };
}

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let waited = 0; !condition(); waited += 20) {
    if (waited > 10_000) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(20);
  }
}

test.skipIf(UNDER_DENO)("kubectl talks HTTP/2 to the server (Go's http2 transport logs its requests) and is served as admin", async () => {
  const result = await kubectlLoggingHttp2(["get", "namespace", "default", "-o", "name"]);
  expect(result.stdout.trim()).toBe("namespace/default");
  expect(result.stderr).toMatch(/http2: Transport encoding header ":path" = "\/api\/v1\/namespaces\/default"/);
  expect(result.stderr).toMatch(/http2: Transport received HEADERS flags=END_HEADERS stream=\d+ len=\d+\n/);
});

test.skipIf(UNDER_DENO)("watches opened as streams of one HTTP/2 connection each receive the event of a create", async () => {
  const h2 = adminSession();
  try {
    const path = "/api/v1/namespaces/default/configmaps?watch=true&labelSelector=h2%3Dshared";
    const watches = [0, 1, 2].map(() => watchLines(h2.request({ ":path": path, accept: "application/json" })));
    expect(await Promise.all(watches.map((watch) => watch.status))).toEqual([200, 200, 200]);
    const created = await server.request("POST", "/api/v1/namespaces/default/configmaps", {
      body: JSON.stringify({ metadata: { name: "over-h2", labels: { h2: "shared" } } }),
      headers: { "Content-Type": "application/json" },
    });
    expect(created.status).toBe(201);
    await until(() => watches.every((watch) => watch.lines.length > 0), "an event on every watch");
    for (const watch of watches) {
      const event = JSON.parse(watch.lines[0]!);
      expect([event.type, event.object.metadata.name]).toEqual(["ADDED", "over-h2"]);
    }
  } finally {
    h2.destroy();
  }
});

test.skipIf(UNDER_DENO)("a GET over HTTP/2 on a connection with open watches is answered with the object", async () => {
  const h2 = adminSession();
  try {
    const watch = watchLines(h2.request({ ":path": "/api/v1/namespaces/default/configmaps?watch=true", accept: "application/json" }));
    expect(await watch.status).toBe(200);
    const get = h2.request({ ":path": "/api/v1/namespaces/default", accept: "application/json" });
    const body = await new Promise<string>((resolve) => {
      let text = "";
      get.setEncoding("utf8");
      get.on("data", (chunk: string) => (text += chunk));
      get.on("end", () => resolve(text));
    });
    expect(JSON.parse(body).metadata.name).toBe("default");
  } finally {
    h2.destroy();
  }
});
