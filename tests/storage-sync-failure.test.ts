/**
 * After a failed sync of the WAL (every fdatasync of the running server made to fail with EIO by strace's fault
 * injection, Debian's package), open watches end as kube's cacher ends them when its reflector's ListAndWatch fails:
 * Cacher.terminateAllWatchers closes each watcher's result channel and WatchServer.ServeHTTP returns, so the chunked
 * response just ends, without an ERROR event. A re-watch is refused as Cacher.Watch refuses one while the cacher is
 * stopped: errors.NewServiceUnavailable of ready.wait's "apiserver cacher is stopped".
 */
import { afterAll, expect, test } from "bun:test";
import { type ChildProcess, spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { configMap, expectStatus, openWatch, sendJson } from "./_api.ts";
import { startServer, type TestServer } from "./harness.ts";
import type { WatchEvent } from "./watch-stream.ts";

const NS = "default";
const COLLECTION = `/api/v1/namespaces/${NS}/configmaps`;
let server: TestServer | undefined;
let tracer: ChildProcess | undefined;

afterAll(async () => {
  await detach();
  await server?.stop();
});

/** Makes every later fdatasync and fsync of the process fail with EIO, once strace holds every one of its threads. */
async function failEverySync(pid: number): Promise<void> {
  tracer = spawn("strace", [
    "-f",
    "-qq",
    "-o",
    "/dev/null",
    "-e",
    "trace=fdatasync,fsync",
    "-e",
    "inject=fdatasync,fsync:error=EIO",
    "-p",
    String(pid),
  ], {
    stdio: ["ignore", "ignore", "inherit"],
  });
  let spawnError: Error | undefined;
  tracer.once("error", (error) => (spawnError = error));
  const tracerPid = tracer.pid;
  // A thread that exited since the listing holds nothing to trace.
  const tracedThread = (task: string) => {
    try {
      return readFileSync(`/proc/${pid}/task/${task}/status`, "utf8").includes(`TracerPid:\t${tracerPid}\n`);
    } catch {
      return true;
    }
  };
  const traced = () => readdirSync(`/proc/${pid}/task`).every(tracedThread);
  for (let wait = 0; !traced(); wait++) {
    if (spawnError || tracer.exitCode !== null || wait > 400) {
      throw new Error(`strace did not attach to every thread of the server${spawnError ? `: ${spawnError.message}` : ""}`);
    }
    await Bun.sleep(25);
  }
}

async function detach(): Promise<void> {
  // A tracer that never started (no pid) has no exit to wait for.
  if (!tracer?.pid || tracer.exitCode !== null) return;
  const exited = new Promise((resolve) => tracer!.once("exit", resolve));
  tracer.kill("SIGTERM");
  await exited;
}

test("after a failed WAL sync an open watch ends without an ERROR event and a re-watch is refused with 503 (Cacher.terminateAllWatchers, Cacher.Watch)", async () => {
  server = await startServer(["--controllers="]);
  const created = await sendJson(server, "POST", COLLECTION, configMap(NS, "before"));
  expect(created.status).toBe(201);
  const since: string = created.body.metadata.resourceVersion;
  const watch = await openWatch(server, `${COLLECTION}?watch=1&resourceVersion=${since}`);

  await failEverySync(server.pid);
  const refused = await sendJson(server, "POST", COLLECTION, configMap(NS, "after"));
  expect(refused.status).toBe(500);

  const events: WatchEvent[] = [];
  for (let event = await watch.next(30_000); event; event = await watch.next(30_000)) events.push(event);
  expect(await watch.ended(1)).toBe(true);
  expect(events.map((event) => event.type)).not.toContain("ERROR");

  const rewatch = await sendJson(server, "GET", `${COLLECTION}?watch=1&resourceVersion=${since}`);
  expectStatus(rewatch, 503, "ServiceUnavailable", "apiserver cacher is stopped");
  // A watch that starts with the current state fails on the list that gives it, as every read does now.
  for (const start of ["", "&resourceVersion=0"]) {
    expectStatus(await sendJson(server, "GET", `${COLLECTION}?watch=1${start}`), 500, "InternalError");
  }
});
