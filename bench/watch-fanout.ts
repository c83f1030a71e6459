/**
 * Watch fan-out (issue 16): 1,000 watches of one collection, each on its own HTTP/1.1 connection, and 100 creates at
 * 50/s; every event's arrival at every watcher is timed from the write's acknowledgement. The same load against a
 * trivial TLS server that writes one pre-serialized frame to every watch is the same-run ceiling. Servers and the
 * load generator (this process) are separate processes. Not a test.
 * Run: node_modules/.bin/bun bench/watch-fanout.ts [watchers] [events] (after bash compile.sh); BENCH_SERVER_BINARY=<path>
 * runs that executable as the server instead (e.g. a script running `bun --cpu-prof-md main.ts "$@"` to profile it).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { join } from "node:path";
import { readCredentials, startServer, type TestServer } from "../tests/harness.ts";
import { expectStatus } from "./_load.ts";
import { cpuMilliseconds } from "./_process.ts";
import { type FanoutResult, runFanout, sortedPercentile } from "./_watch-fanout.ts";
import type { WatchTarget } from "./_watch-client.ts";

const NS = "bench-fanout";
const COLLECTION = `/api/v1/namespaces/${NS}/configmaps`;
const JSON_HEADERS = { "Content-Type": "application/json", Accept: "application/json" };
const PER_SECOND = 50;

const configMap = (name: string) =>
  JSON.stringify({
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: { name, namespace: NS, labels: { app: "bench" } },
    data: { key: "value".repeat(20) },
  });

async function kubunFanout(server: TestServer, watchers: number, events: number): Promise<FanoutResult> {
  const namespace = JSON.stringify({ apiVersion: "v1", kind: "Namespace", metadata: { name: NS } });
  expectStatus(await server.request("POST", "/api/v1/namespaces", { body: namespace, headers: JSON_HEADERS }), 201, "namespace");
  expectStatus(await server.request("POST", COLLECTION, { body: configMap("seed"), headers: JSON_HEADERS }), 201, "seed");
  const credentials = readCredentials(await Bun.file(server.kubeconfig).text());
  const url = new URL(credentials.url);
  const target: WatchTarget = {
    host: url.hostname,
    port: Number(url.port),
    ca: credentials.ca,
    cert: credentials.cert,
    key: credentials.key,
  };
  return await runFanout(target, {
    serverCpuMs: () => cpuMilliseconds(server.pid),
    watchers,
    events,
    perSecond: PER_SECOND,
    collection: COLLECTION,
    write: async (i) => {
      const response = await server.request("POST", COLLECTION, { body: configMap(`ev-${i}`), headers: JSON_HEADERS });
      expectStatus(response, 201, `create ev-${i}`);
      await response.arrayBuffer();
    },
  });
}

async function ceilingFanout(dataDir: string, watchers: number, events: number): Promise<FanoutResult> {
  const child: ChildProcess = spawn(
    process.execPath,
    [join(import.meta.dir, "_fanout-ceiling-server.ts"), join(dataDir, "apiserver.crt"), join(dataDir, "apiserver.key")],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  try {
    const [portLine] = (await once(child.stdout!, "data")) as [Buffer];
    const port = Number(portLine.toString().trim());
    const ca = await Bun.file(join(dataDir, "ca.crt")).text();
    const collection = `https://127.0.0.1:${port}${COLLECTION}`;
    return await runFanout({ host: "127.0.0.1", port, ca }, {
      serverCpuMs: () => cpuMilliseconds(child.pid!),
      watchers,
      events,
      perSecond: PER_SECOND,
      collection: COLLECTION,
      write: async (i) => {
        const response = await fetch(collection, { method: "POST", body: configMap(`ev-${i}`), headers: JSON_HEADERS, tls: { ca } });
        expectStatus(response, 201, `ceiling create ev-${i}`);
        await response.arrayBuffer();
      },
    });
  } finally {
    child.kill();
  }
}

function describe(result: FanoutResult): string {
  const ms = (p: number): string => `${sortedPercentile(result.latencies, p).toFixed(1)} ms`;
  const delivered = `${result.delivered.toLocaleString("en-US")}/${result.expected.toLocaleString("en-US")} delivered`;
  const cpuPerEvent = ((result.serverCpuMs * 1000) / Math.max(1, result.delivered)).toFixed(1);
  const sent = `${sortedPercentile(result.sinceSent, 99).toFixed(1)} ms`;
  return `${delivered}; p50 ${ms(50)}, p99 ${ms(99)}, max ${
    ms(100)
  } (p99 from the write sent ${sent}); server CPU ${cpuPerEvent} µs per delivered event`;
}

/** Rows for bench/run.ts: kubun's fan-out, the trivial server's, and the ratio of their p99 latencies. */
export async function watchFanoutRows(server: TestServer, watchers = 1000, events = 100): Promise<[string, string][]> {
  const kubun = await kubunFanout(server, watchers, events);
  const ceiling = await ceilingFanout(server.dataDir, watchers, events);
  const load = `${watchers.toLocaleString("en-US")} watchers × ${events} events at ${PER_SECOND}/s, write acknowledged → event received`;
  const p99 = (result: FanoutResult) => sortedPercentile(result.latencies, 99);
  return [
    [`watch fan-out, ${load}`, describe(kubun)],
    [`ceiling: trivial Bun.listen TLS server writing one pre-serialized chunk per event to every watch socket`, describe(ceiling)],
    ["ratio watch fan-out p99 ÷ ceiling p99", (p99(kubun) / p99(ceiling)).toFixed(2)],
  ];
}

if (import.meta.main) {
  const [watchers, events] = process.argv.slice(2).map(Number);
  const server = await startServer([], { binary: process.env.BENCH_SERVER_BINARY });
  try {
    const rows = await watchFanoutRows(server, watchers || undefined, events || undefined);
    console.log("| Measure | Result |\n|---|---|");
    for (const [measure, result] of rows) console.log(`| ${measure} | ${result} |`);
  } finally {
    await server.stop();
  }
}
