/**
 * Graceful shutdown as kube-apiserver 1.26 (GenericAPIServer's lifecycle signals): on SIGTERM /readyz fails at
 * once with `[-]shutdown failed: reason withheld` while requests are still served for --shutdown-delay-duration;
 * then, with --shutdown-send-retry-after, new requests get WithRetryAfter's 429 (probes still served) until the
 * request in flight is answered; watches end cleanly, the database is checkpointed and the exit code is 0.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, statSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { asAdminOnDisk, startKubun } from "./_kubun-process.ts";

let scratch: string;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), "kubun-shutdown-"));
});

afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

/** Polls `path` until its status is `status`; answers that response. */
async function waitForStatus(get: (path: string) => Promise<Response>, path: string, status: number): Promise<Response> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const response = await get(path);
    if (response.status === status) return response;
    await response.arrayBuffer();
    if (Date.now() > deadline) throw new Error(`${path} still answers ${response.status}, not ${status}`);
    await Bun.sleep(50);
  }
}

test("SIGTERM: readyz fails first, then WithRetryAfter's 429 while the request in flight finishes; watch ends; exit 0", async () => {
  const dataDir = join(scratch, "data");
  const server = await startKubun(dataDir, ["--shutdown-delay-duration", "2s", "--shutdown-send-retry-after", "--request-timeout", "10s"]);
  const get = (path: string) => asAdminOnDisk(dataDir, server.url, path);

  const watch = await get("/api/v1/namespaces?watch=1");
  expect(watch.status).toBe(200);
  const watchReader = watch.body!.getReader();
  // A create whose body never ends: in flight until its 10 s deadline, it holds the shutdown open.
  const [ca, cert, key] = await Promise.all(["ca.crt", "admin.crt", "admin.key"].map((name) => readFile(join(dataDir, name), "utf8")));
  const inFlight = fetch(`${server.url}/api/v1/namespaces/default/configmaps`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: new ReadableStream({ start: (controller) => controller.enqueue(new TextEncoder().encode("{")) }),
    tls: { ca, cert, key },
  });

  const exitCode = server.stop();
  const notReady = await waitForStatus(get, "/readyz?verbose", 500);
  expect(await notReady.text()).toContain("[-]shutdown failed: reason withheld");
  // During the shutdown delay the server is live and serves as usual.
  expect((await get("/livez")).status).toBe(200);
  expect((await get("/api/v1/namespaces/default")).status).toBe(200);

  const refused = await waitForStatus(get, "/api/v1/namespaces/default", 429);
  expect(refused.headers.get("retry-after")).toBe("5");
  expect(await refused.text()).toBe("The apiserver is shutting down, please try again later.\n");
  expect((await get("/healthz")).status).toBe(200);

  expect((await inFlight).status).toBe(504);
  for (;;) {
    const { done } = await watchReader.read();
    if (done) break;
  }
  expect(await exitCode).toBe(0);
  const wal = join(dataDir, "kubun.db-wal");
  expect(existsSync(wal) ? statSync(wal).size : 0).toBe(0);
});
