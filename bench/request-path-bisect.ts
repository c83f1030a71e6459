/**
 * Bisects the request path's cost: the real server from source (bench/_request-path-server.ts, one variant) under
 * kept-alive TLS load from bench/_keepalive-client.ts in its own process, reporting per request the main thread's
 * and the whole process's CPU time, minor page faults and context switches; optionally bytes allocated on
 * JavaScriptCore's heap and its collections' time (--gc), or a perf profile of the main thread with the JIT's
 * functions named (--perf; needs perf and perf_event_paranoid ≤ 2). Not a test.
 * `--binary PATH` runs a compiled server instead (the full variant), to compare two builds. KEEP_BISECT=1 keeps the
 * data directory, jitdump and perf.data for a closer look. `--token` sends a ServiceAccount token bound to cluster-admin
 * instead of the admin's client certificate; the ConfigMap default/bench exists for `--path`. `--create` POSTs ConfigMaps
 * with new names into `default` instead of the GETs (issue 16's durable creates; bench/_creates.ts's body). `--per-second N`
 * paces the load (keepAliveLoad's perSecond), so two builds are compared doing the same work per second: CPU per
 * request falls as the rate rises (larger waves and group commits), and an unpaced rate swings with the machine's load.
 * Run: node_modules/.bin/bun bench/request-path-bisect.ts [full|answer-at-once|pre-verified|floor-node-tls|floor-bun-listen] [--connections N]
 *      [--rounds N] [--path P] [--create] [--per-second N] [--gc] [--perf] [--binary PATH] [-- kube-apiserver flags]
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { keepAliveLoad, type LoadOptions } from "./_keepalive-client.ts";
import { attribute, topRows } from "./_perf-attribution.ts";
import { writePerfMap } from "./_jitdump.ts";
import { measure, serviceAccountToken } from "./_request-path.ts";
import type { ServerVariant } from "./_request-path-server.ts";

const SERVER = resolve(import.meta.dir, "_request-path-server.ts");
const WARM_UP_MS = 3000;
const MEASURE_MS = 3000;
const PERF_HZ = 4999;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    connections: { type: "string", default: "32" },
    rounds: { type: "string", default: "2" },
    path: { type: "string", default: "/healthz" },
    gc: { type: "boolean", default: false },
    perf: { type: "boolean", default: false },
    binary: { type: "string" },
    token: { type: "boolean", default: false },
    create: { type: "boolean", default: false },
    "per-second": { type: "string" },
  },
});
const [variant = "full", ...serverFlags] = positionals as [ServerVariant?, ...string[]];
const work = mkdtempSync(join(tmpdir(), "kubun-bisect-"));
const dataDir = join(work, "data");
const jitDumps = join(work, "jit");

function startServer(): ChildProcess {
  const env: Record<string, string | undefined> = { ...process.env };
  if (values.gc) env.BUN_JSC_logGC = "1";
  if (values.perf) Object.assign(env, { BUN_JSC_useJITDump: "1", BUN_JSC_jitDumpDirectory: jitDumps });
  if (values.perf) mkdirSync(jitDumps, { recursive: true });
  const flags = ["--secure-port", "0", "--bind-address", "127.0.0.1", "--data-dir", dataDir, ...serverFlags];
  const [program, args] = values.binary ? [values.binary, flags] : [process.execPath, [SERVER, variant, ...flags]];
  return spawn(program, args, { stdio: ["ignore", values.binary ? "ignore" : "pipe", values.gc ? "pipe" : "ignore"], env });
}

/** The port: the variant server prints it; a compiled server writes it into its admin kubeconfig. */
async function serverPort(server: ChildProcess): Promise<number> {
  if (!values.binary) {
    const [line] = (await once(server.stdout!, "data")) as [Buffer];
    return Number(line.toString().trim());
  }
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const kubeconfig = (() => {
      try {
        return readFileSync(join(dataDir, "admin.kubeconfig"), "utf8");
      } catch {
        return "";
      }
    })();
    const port = /server: https:\/\/[^\s]+:(\d+)/.exec(kubeconfig)?.[1];
    if (port) return Number(port);
  }
}

/** Fields of /proc/<pid>/stat after the command name: minor faults are the 8th. */
function minorFaults(pid: number): number {
  return Number(readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ")[7]);
}

/** The main thread's voluntary and involuntary context switches. */
function contextSwitches(pid: number): [number, number] {
  const status = readFileSync(`/proc/${pid}/task/${pid}/status`, "utf8");
  const [voluntary, involuntary] = [...status.matchAll(/ctxt_switches:\s+(\d+)/g)].map((match) => Number(match[1]));
  return [voluntary!, involuntary!];
}

/** KiB allocated between collections and collection time in the GC log between the two MARK lines, per request. */
function gcFigures(log: string, requests: number): string {
  const window = log.split("MARK\n")[1] ?? "";
  const before = [...window.matchAll(/START \w+ (\d+)kb/g)].map((match) => Number(match[1]));
  const after = [...window.matchAll(/=> (\d+)kb, p=/g)].map((match) => Number(match[1]));
  const allocated = before.slice(1).reduce((sum, size, i) => sum + size - after[i]!, 0);
  const cycleMs = [...window.matchAll(/cycle ([\d.]+)ms/g)].reduce((sum, match) => sum + Number(match[1]), 0);
  return `${before.length} collections, ${(allocated / requests).toFixed(1)} KiB allocated per request between them, ` +
    `${((cycleMs * 1000) / requests).toFixed(1)} µs of collection per request`;
}

const server = startServer();
let gcLog = "";
server.stderr?.on("data", (chunk: Buffer) => (gcLog += chunk.toString()));
try {
  const port = await serverPort(server);
  const pid = server.pid!;
  const [ca, cert, key] = ["ca.crt", "admin.crt", "admin.key"].map((file) => readFileSync(join(dataDir, file), "utf8"));
  const admin = {
    request: (method: string, path: string, init: { body?: string; headers?: Record<string, string> } = {}) =>
      fetch(`https://127.0.0.1:${port}${path}`, { method, ...init, tls: { ca, cert, key } }),
  };
  const seeded = await admin.request("POST", "/api/v1/namespaces/default/configmaps", {
    body: JSON.stringify({ metadata: { name: "bench" }, data: { key: "value".repeat(20) } }),
    headers: { "Content-Type": "application/json" },
  });
  // answer-at-once answers 200 to anything.
  if (!seeded.ok) throw new Error(`seeding default/bench: ${seeded.status}`);
  const identity = values.token ? { token: await serviceAccountToken(admin) } : { cert, key };
  // Each load process numbers its requests from 0, so each run's names carry the run's own number too.
  let run = 0;
  const createsOf = (options: LoadOptions): LoadOptions => ({
    ...options,
    path: "/api/v1/namespaces/default/configmaps",
    body: JSON.stringify({
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name: `c${run++}-{n}`, namespace: "default", labels: { app: "bench" } },
      data: { key: "value".repeat(20) },
    }),
  });
  const loaded = (options: LoadOptions) => values.create ? createsOf(options) : options;
  const options: LoadOptions = {
    port,
    path: values.path!,
    ca,
    ...identity,
    connections: Number(values.connections),
    durationMs: MEASURE_MS,
    perSecond: values["per-second"] === undefined ? undefined : Number(values["per-second"]),
  };
  await keepAliveLoad(loaded({ ...options, durationMs: WARM_UP_MS }));
  const as = values.token ? "a ServiceAccount token" : "the admin's client certificate";
  const what = values.create ? "POST /api/v1/namespaces/default/configmaps" : `GET ${options.path}`;
  console.log(`${values.binary ?? variant} ${serverFlags.join(" ")}, ${what} with ${as}, ${options.connections} connections`);
  for (let round = 0; round < Number(values.rounds); round++) {
    const [faults, [voluntary, involuntary]] = [minorFaults(pid), contextSwitches(pid)];
    if (values.gc && round === 0) server.kill("SIGUSR1");
    const figure = await measure(pid, loaded(options));
    if (values.gc && round === 0) server.kill("SIGUSR1");
    const requests = (figure.perSecond * MEASURE_MS) / 1000;
    const [voluntaryAfter, involuntaryAfter] = contextSwitches(pid);
    const perRequest = (count: number) => (count / requests).toFixed(2);
    console.log(
      `  ${Math.round(figure.perSecond)}/s: main thread ${figure.mainThreadMicroseconds.toFixed(0)} µs, ` +
        `process ${figure.cpuMicroseconds.toFixed(0)} µs, minor faults ${perRequest(minorFaults(pid) - faults)}, ` +
        `context switches ${perRequest(voluntaryAfter - voluntary)} voluntary / ${perRequest(involuntaryAfter - involuntary)} involuntary`,
    );
    if (values.gc && round === 0) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      console.log(`  ${gcFigures(gcLog, requests)}`);
    }
  }
  if (values.perf) {
    const data = join(work, "perf.data");
    const seconds = MEASURE_MS / 1000;
    const record = ["record", "-g", "-k", "1", "-e", "cpu-clock:u", "-F", String(PERF_HZ), "-t", String(pid), "-o", data];
    const perf = spawn("perf", [...record, "--", "sleep", String(seconds)], { stdio: "ignore" });
    const load = keepAliveLoad(loaded({ ...options, durationMs: MEASURE_MS + 500 }));
    await once(perf, "exit");
    const { perSecond } = await load;
    const dump = readdirSync(jitDumps).find((file) => file.endsWith(`-${pid}.dump`));
    if (dump) writePerfMap(join(jitDumps, dump), pid);
    const { samples, inclusive, nearest } = attribute(
      execFileSync("perf", ["script", "-i", data, "-F", "ip,sym,dso"], { maxBuffer: 1 << 30 }).toString(),
    );
    // perf reads the map only while it reports; the next process with this pid must not inherit its names.
    rmSync(`/tmp/perf-${pid}.map`, { force: true });
    // One sample stands for 1/PERF_HZ s of the main thread's user time; per request at the load's rate.
    const perSample = 1e6 / PERF_HZ / (perSecond * seconds);
    console.log(`  perf: ${samples} user-mode samples of the main thread, ${(samples * perSample).toFixed(1)} µs per request`);
    console.log("  inclusive (µs per request):");
    for (const row of topRows(inclusive, perSample, 30)) console.log(`    ${row}`);
    console.log("  innermost JavaScript frame (µs per request):");
    for (const row of topRows(nearest, perSample, 30)) console.log(`    ${row}`);
  }
} finally {
  server.kill();
  await once(server, "exit");
  if (!process.env.KEEP_BISECT) rmSync(work, { recursive: true, force: true });
  else console.log(`  kept ${work}`);
}
