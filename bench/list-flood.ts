/**
 * Large lists (issue 20 item 6, issue 16): the latency of one LIST of 10,000 ConfigMaps beside the same-run cost of
 * merely parsing and re-serializing its body, and the server's resident memory while 50 clients list them at once
 * (JSON, Table, protobuf) beside its idle memory, with the longest /livez wait meanwhile. The load generator is this
 * process; the server is its own. Not a test.
 * Run: node_modules/.bin/bun bench/list-flood.ts (after bash compile.sh).
 */
import { startServer, type TestServer } from "../tests/harness.ts";
import { expectStatus, latencies, percentile } from "./_load.ts";
import { cpuMilliseconds, residentBytes, serverPid } from "./_process.ts";

const COLLECTION_SIZE = 10_000;
const CLIENTS = 50;
const NS = "bench-list";
const COLLECTION = `/api/v1/namespaces/${NS}/configmaps`;
const JSON_HEADERS = { "Content-Type": "application/json", Accept: "application/json" };
const TABLE_ACCEPT = "application/json;as=Table;v=v1;g=meta.k8s.io,application/json";
const PROTOBUF_ACCEPT = "application/vnd.kubernetes.protobuf";

async function fill(server: TestServer): Promise<void> {
  const namespace = JSON.stringify({ apiVersion: "v1", kind: "Namespace", metadata: { name: NS } });
  expectStatus(await server.request("POST", "/api/v1/namespaces", { body: namespace, headers: JSON_HEADERS }), 201, "namespace");
  for (let start = 0; start < COLLECTION_SIZE; start += 50) {
    await Promise.all(Array.from({ length: 50 }, async (_, i) => {
      const name = `c-${String(start + i).padStart(5, "0")}`;
      const body = JSON.stringify({
        apiVersion: "v1",
        kind: "ConfigMap",
        metadata: { name, namespace: NS, labels: { app: "bench" } },
        data: { key: "value".repeat(20) },
      });
      const response = await server.request("POST", COLLECTION, { body, headers: JSON_HEADERS });
      expectStatus(response, 201, `create ${name}`);
      await response.arrayBuffer();
    }));
  }
}

async function listText(server: TestServer, accept = "application/json"): Promise<string> {
  const response = await server.request("GET", COLLECTION, { headers: { Accept: accept } });
  expectStatus(response, 200, "list");
  return await response.text();
}

/** Peak RSS and the longest /livez wait while CLIENTS clients each list the collection once. */
async function flood(server: TestServer, pid: number, accept: string): Promise<{ peakBytes: number; probeMaxMs: number }> {
  let peakBytes = residentBytes(pid);
  let done = false;
  let probeMaxMs = 0;
  const sampler = setInterval(() => (peakBytes = Math.max(peakBytes, residentBytes(pid))), 5);
  const probing = (async () => {
    while (!done) {
      const started = performance.now();
      await (await server.request("GET", "/livez")).text();
      probeMaxMs = Math.max(probeMaxMs, performance.now() - started);
    }
  })();
  await Promise.all(Array.from({ length: CLIENTS }, () => listText(server, accept)));
  done = true;
  await probing;
  clearInterval(sampler);
  return { peakBytes: Math.max(peakBytes, residentBytes(pid)), probeMaxMs };
}

const ms = (value: number) => `${value.toFixed(1)} ms`;
const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;

async function main(): Promise<void> {
  const server = await startServer();
  const rows: [string, string][] = [];
  try {
    const pid = serverPid(server.dataDir);
    await fill(server);
    const body = await listText(server);
    const cpuBefore = cpuMilliseconds(pid);
    const list = await latencies(15, async () => void (await listText(server)));
    const cpuPerList = (cpuMilliseconds(pid) - cpuBefore) / 15;
    const reserialize = await latencies(15, async () => void JSON.stringify(JSON.parse(body)));
    rows.push([
      `list of ${COLLECTION_SIZE.toLocaleString("en-US")} ConfigMaps (JSON, ${mib(body.length)}), p50 / p95`,
      `${ms(percentile(list, 50))} / ${ms(percentile(list, 95))}`,
    ]);
    rows.push(["server CPU time per list", ms(cpuPerList)]);
    rows.push(["baseline: JSON.parse + JSON.stringify of that body in the load generator, p50", ms(percentile(reserialize, 50))]);
    Bun.gc(true);
    const idle = residentBytes(pid);
    rows.push(["server RSS, idle after the lists above", mib(idle)]);
    for (const [form, accept] of [["JSON", "application/json"], ["Table", TABLE_ACCEPT], ["protobuf", PROTOBUF_ACCEPT]]) {
      const { peakBytes, probeMaxMs } = await flood(server, pid, accept);
      rows.push([
        `${CLIENTS} clients listing at once (${form}): server RSS peak / longest /livez wait`,
        `${mib(peakBytes)} / ${ms(probeMaxMs)}`,
      ]);
    }
  } finally {
    await server.stop();
  }
  console.log(`| Measure (${navigator.hardwareConcurrency} cores, Bun ${Bun.version}) | Result |`);
  console.log("|---|---|");
  for (const [measure, result] of rows) console.log(`| ${measure} | ${result} |`);
}

await main();
