/**
 * The worst-case cost of one hostile request (issue 20): for each, the compiled server's answer, how long it
 * took, the longest a /livez probe sent meanwhile waited (how long the event loop was held), and how far the
 * server's resident memory rose; a plain small create and a 3 MiB create are the same-run ceilings. The load
 * generator is this process; the server is its own. Not a test.
 * Run: node_modules/.bin/bun bench/hostile.ts (after bash compile.sh).
 */
import { startServer, type TestServer } from "../tests/harness.ts";
import { residentBytes, serverPid } from "./_process.ts";

const RUNS = 3;
const NS = "bench-hostile";
const COLLECTION = `/api/v1/namespaces/${NS}/configmaps`;

interface HostileRequest {
  name: string;
  method: string;
  path: (run: number) => string;
  contentType: string;
  body: (run: number) => string;
}

const nested = (depth: number, open: string, close: string) => `${open.repeat(depth)}1${close.repeat(depth)}`;
const configMap = (name: string, data: string) => `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"${name}"},"data":${data}}`;

function aliasBomb(name: string): string {
  const anchors = "abcdefghi";
  const lines = [
    "apiVersion: v1",
    "kind: ConfigMap",
    "metadata:",
    `  name: ${name}`,
    "  annotations:",
    '    a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
  ];
  for (let i = 1; i < anchors.length; i++) {
    lines.push(`    ${anchors[i]}: &${anchors[i]} [${Array(9).fill(`*${anchors[i - 1]}`).join(",")}]`);
  }
  return lines.join("\n");
}

const doublingCopies = JSON.stringify([
  { op: "add", path: "/metadata/annotations", value: { seed: "z".repeat(1000) } },
  ...Array.from({ length: 24 }, (_, i) => ({ op: "copy", from: "/metadata/annotations", path: `/metadata/annotations/k${i}` })),
]);

const REQUESTS: HostileRequest[] = [
  {
    name: "plain small create (ceiling)",
    method: "POST",
    path: () => COLLECTION,
    contentType: "application/json",
    body: (run) => configMap(`small-${run}`, '{"key":"value"}'),
  },
  {
    name: "3 MiB create (ceiling)",
    method: "POST",
    path: () => COLLECTION,
    contentType: "application/json",
    body: (run) => configMap(`big-${run}`, `{"key":"${"v".repeat(3 * 1024 * 1024 - 200)}"}`),
  },
  {
    name: "JSON nested 100,000 deep",
    method: "POST",
    path: () => COLLECTION,
    contentType: "application/json",
    body: (run) => configMap(`deep-${run}`, nested(100_000, '{"a":', "}")),
  },
  {
    name: "YAML nested 100,000 deep",
    method: "POST",
    path: () => COLLECTION,
    contentType: "application/yaml",
    body: (run) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: deep-${run}\ndata: ${nested(100_000, "[", "]")}\n`,
  },
  {
    name: "YAML alias bomb (9 levels of 9)",
    method: "POST",
    path: () => COLLECTION,
    contentType: "application/yaml",
    body: (run) => aliasBomb(`bomb-${run}`),
  },
  {
    name: "one key repeated 200,000 times (1.6 MB)",
    method: "POST",
    path: () => COLLECTION,
    contentType: "application/json",
    body: (run) => configMap(`dups-${run}`, `{${Array(200_000).fill('"k":"v"').join(",")}}`),
  },
  {
    name: "JSON patch of 24 doubling copies",
    method: "PATCH",
    path: () => `${COLLECTION}/target`,
    contentType: "application/json-patch+json",
    body: () => doublingCopies,
  },
];

interface Measure {
  status: number;
  ms: number;
  probeMaxMs: number;
  rssRiseBytes: number;
}

/** Sends one request while probing /livez back to back and sampling the server's RSS. */
async function measure(server: TestServer, pid: number, request: HostileRequest, run: number): Promise<Measure> {
  const body = request.body(run);
  const baseline = residentBytes(pid);
  let peak = baseline;
  let done = false;
  let probeMaxMs = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, residentBytes(pid))), 5);
  const probing = (async () => {
    while (!done) {
      const started = performance.now();
      await (await server.request("GET", "/livez")).text();
      probeMaxMs = Math.max(probeMaxMs, performance.now() - started);
    }
  })();
  const started = performance.now();
  const response = await server.request(request.method, request.path(run), {
    body,
    headers: { "Content-Type": request.contentType, Accept: "application/json" },
  });
  await response.text();
  const ms = performance.now() - started;
  done = true;
  await probing;
  clearInterval(sampler);
  peak = Math.max(peak, residentBytes(pid));
  return { status: response.status, ms, probeMaxMs, rssRiseBytes: peak - baseline };
}

async function main(): Promise<void> {
  const server = await startServer();
  const rows: string[] = [];
  try {
    const pid = serverPid(server.dataDir);
    await server.request("POST", "/api/v1/namespaces", {
      body: JSON.stringify({ apiVersion: "v1", kind: "Namespace", metadata: { name: NS } }),
      headers: { "Content-Type": "application/json" },
    });
    await server.request("POST", COLLECTION, {
      body: configMap("target", '{"seed":"x"}'),
      headers: { "Content-Type": "application/json" },
    });
    for (const request of REQUESTS) {
      // The first run warms the JIT for this request's path and is not counted.
      await measure(server, pid, request, RUNS);
      const runs: Measure[] = [];
      for (let run = 0; run < RUNS; run++) runs.push(await measure(server, pid, request, run));
      const worst = (pick: (m: Measure) => number) => Math.max(...runs.map(pick));
      const bodyBytes = Buffer.byteLength(request.body(0));
      rows.push(
        `| ${request.name} | ${(bodyBytes / 1024).toFixed(0)} KiB | ${[...new Set(runs.map((m) => m.status))].join(", ")} | ${
          worst((m) => m.ms).toFixed(1)
        } ms | ${worst((m) => m.probeMaxMs).toFixed(1)} ms | ${(worst((m) => m.rssRiseBytes) / 2 ** 20).toFixed(1)} MiB |`,
      );
    }
  } finally {
    await server.stop();
  }
  console.log(
    `| Request (worst of ${RUNS}, ${navigator.hardwareConcurrency} cores, Bun ${Bun.version}) | body | status | time | longest /livez wait meanwhile | server RSS rise |`,
  );
  console.log("|---|---|---|---|---|---|");
  for (const row of rows) console.log(row);
}

await main();
