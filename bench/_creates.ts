/**
 * Durable creates over kept-alive TLS connections from a load generator in its own process (bench/_keepalive-client.ts
 * POSTing ConfigMaps with unique names), 1 and 64 clients: each rate beside the same-run raw single-commit ceiling,
 * with the server's CPU time per create and, for 64 clients, the group commit's batch sizes.
 */
import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { TestServer } from "../tests/harness.ts";
import type { LoadOptions, LoadResult } from "./_keepalive-client.ts";
import { commitBatchBuckets, describeBatches } from "./_commit-batches.ts";
import { expectStatus } from "./_load.ts";
import { cpuMilliseconds, jitThreadsCpuMilliseconds, mainThreadCpuMilliseconds } from "./_process.ts";

const CLIENT = join(import.meta.dir, "_keepalive-client.ts");
const NAMESPACE = "bench-keepalive";

export interface CreateFigure {
  perSecond: number;
  cpuMicroseconds: number;
  /**
   * Of that, the JavaScript thread's: the rest is mostly the JIT compiling what the run made hot, which goes on for
   * ~15 s of creates after a start or an idle release (runtime/memory-release.ts drops the compiled code).
   */
  mainThreadMicroseconds: number;
  /** Of the rest, JavaScriptCore's JIT compiler threads'. */
  jitMicroseconds: number;
  batches: string;
}

function load(options: LoadOptions): Promise<LoadResult> {
  return new Promise((done, fail) => {
    execFile(process.execPath, [CLIENT, JSON.stringify(options)], { maxBuffer: 1 << 20 }, (error, stdout) => {
      if (error) return fail(error);
      const result: LoadResult = JSON.parse(stdout);
      const unexpected = Object.keys(result.statuses).filter((status) => status !== "201");
      if (unexpected.length > 0) return fail(new Error(`creates answered ${JSON.stringify(result.statuses)}`));
      done(result);
    });
  });
}

/** Runs of `durationMs` at 1 and `clients` connections, after a warm-up run; every name is new. */
export async function keptAliveCreates(
  server: TestServer,
  options: { durationMs: number; clients: number; warmUpMs: number },
): Promise<{ sequential: CreateFigure; concurrent: CreateFigure }> {
  const created = await server.request("POST", "/api/v1/namespaces", {
    body: JSON.stringify({ metadata: { name: NAMESPACE } }),
    headers: { "Content-Type": "application/json" },
  });
  expectStatus(created, 201, `create namespace ${NAMESPACE}`);
  const [ca, cert, key] = await Promise.all(
    ["ca.crt", "admin.crt", "admin.key"].map((file) => readFile(join(server.dataDir, file), "utf8")),
  );
  const base = { port: Number(new URL(server.url).port), path: `/api/v1/namespaces/${NAMESPACE}/configmaps`, ca, cert, key };
  let round = 0;
  const run = async (connections: number, durationMs: number): Promise<CreateFigure> => {
    const body = JSON.stringify({
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name: `r${round++}-{n}`, namespace: NAMESPACE, labels: { app: "bench" } },
      data: { key: "value".repeat(20) },
    });
    const batchesBefore = await commitBatchBuckets(server);
    const cpuBefore = cpuMilliseconds(server.pid);
    const mainBefore = mainThreadCpuMilliseconds(server.pid);
    const jitBefore = jitThreadsCpuMilliseconds(server.pid);
    const result = await load({ ...base, connections, durationMs, body });
    const perCreate = (milliseconds: number) => (milliseconds * 1000) / result.requests;
    const cpuMicroseconds = perCreate(cpuMilliseconds(server.pid) - cpuBefore);
    const mainThreadMicroseconds = perCreate(mainThreadCpuMilliseconds(server.pid) - mainBefore);
    const jitMicroseconds = perCreate(jitThreadsCpuMilliseconds(server.pid) - jitBefore);
    const batches = describeBatches(batchesBefore, await commitBatchBuckets(server), result.requests);
    return { perSecond: result.perSecond, cpuMicroseconds, mainThreadMicroseconds, jitMicroseconds, batches };
  };
  await run(options.clients, options.warmUpMs);
  return { sequential: await run(1, options.durationMs), concurrent: await run(options.clients, options.durationMs) };
}
