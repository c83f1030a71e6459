/**
 * Memory and start-up (issue 16): the compiled server's time from exec to its first /readyz 200 and its resident
 * memory idle, with 10,000 ConfigMaps (and more with --objects), each beside its goal and beside a same-run ceiling:
 * a trivial Bun.serve HTTPS executable compiled the same way (bench/_hello-bun-serve.ts). The server runs with
 * `npm start`'s flags (Node,RBAC, NodeRestriction, controllers on); this process is the load generator. Not a test.
 * Run: node_modules/.bin/bun bench/memory.bench.ts [--objects 10000,100000] (after bash compile.sh).
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { type Credentials, readCredentials, serverCommand } from "../tests/harness.ts";
import { npmStartFlags } from "../scripts/record-bytecode-order.ts";
import { expectStatus, rate } from "./_load.ts";
import { residentBytes } from "./_process.ts";

const GOALS = { readyMs: 300, idleBytes: 60e6, perObjects: new Map([[10_000, 120e6], [100_000, 400e6]]) };
const POLL_MS = 2;
/** Resident memory is read once the process has been left alone this long (past one check of runtime/memory-release.ts). */
const SETTLE_MS = 12_000;
/** A second reading after a burst: the allocator returns part of what memory-release freed ~10 s after the release. */
const LATER_MS = 30_000;
const RESTARTS = 3;
const CREATORS = 64;
const NS = "bench-memory";

interface Started {
  child: ChildProcess;
  readyMs: number;
  stop(): Promise<void>;
}

async function waitUntil(check: () => boolean | Promise<boolean>, child: ChildProcess, what: string): Promise<void> {
  const deadline = performance.now() + 60_000;
  while (!(await check())) {
    if (child.exitCode !== null || performance.now() > deadline) throw new Error(`${what}: the process exited or took over 60 s`);
    await Bun.sleep(POLL_MS);
  }
}

function stopper(child: ChildProcess): () => Promise<void> {
  const exited = new Promise<void>((done) => child.once("exit", () => done()));
  return async () => {
    child.kill("SIGTERM");
    await exited;
  };
}

const readyz = (url: string, tls: Credentials | { ca: string }) =>
  fetch(`${url}/readyz`, { tls }).then((response) => response.status === 200, () => false);

/** exec → first /readyz 200; the admin kubeconfig (rewritten at each start with the new port) says where. */
async function startKubun(dataDir: string): Promise<Started & { credentials: Credentials }> {
  const kubeconfig = join(dataDir, "admin.kubeconfig");
  await rm(kubeconfig, { force: true });
  const [program, ...args] = serverCommand();
  const started = performance.now();
  const child = spawn(program!, [...args, "--secure-port", "0", "--bind-address", "127.0.0.1", "--data-dir", dataDir, ...npmStartFlags()], {
    stdio: ["ignore", "ignore", "ignore"],
  });
  await waitUntil(() => existsSync(kubeconfig), child, "kubeconfig");
  const credentials = readCredentials(await readFile(kubeconfig, "utf8"));
  await waitUntil(() => readyz(credentials.url, credentials), child, "readyz");
  return { child, credentials, readyMs: performance.now() - started, stop: stopper(child) };
}

async function startHello(binary: string, dataDir: string, ca: string): Promise<Started> {
  const started = performance.now();
  const child = spawn(binary, [join(dataDir, "apiserver.crt"), join(dataDir, "apiserver.key")], { stdio: ["ignore", "pipe", "ignore"] });
  let port = "";
  child.stdout!.on("data", (chunk: Buffer) => (port += chunk.toString()));
  await waitUntil(() => port.endsWith("\n"), child, "hello port");
  await waitUntil(() => readyz(`https://127.0.0.1:${port.trim()}`, { ca }), child, "hello readyz");
  return { child, readyMs: performance.now() - started, stop: stopper(child) };
}

/** Median start time of RESTARTS starts and the resident memory of the last one once settled. */
async function measureStarts(start: () => Promise<Started>): Promise<{ readyMs: number; idleBytes: number }> {
  const times: number[] = [];
  let idleBytes = 0;
  for (let i = 0; i < RESTARTS; i++) {
    const server = await start();
    times.push(server.readyMs);
    if (i === RESTARTS - 1) {
      await Bun.sleep(SETTLE_MS);
      idleBytes = residentBytes(server.child.pid!);
    }
    await server.stop();
  }
  return { readyMs: times.sort((a, b) => a - b)[Math.floor(RESTARTS / 2)]!, idleBytes };
}

async function fill(credentials: Credentials, from: number, to: number): Promise<void> {
  const headers = { "Content-Type": "application/json" };
  const post = (path: string, body: unknown) =>
    fetch(`${credentials.url}${path}`, { method: "POST", headers, body: JSON.stringify(body), tls: credentials });
  if (from === 0) expectStatus(await post("/api/v1/namespaces", { metadata: { name: NS } }), 201, "namespace");
  await rate(to - from, CREATORS, async (i) => {
    const name = `c-${String(from + i).padStart(6, "0")}`;
    const body = { apiVersion: "v1", kind: "ConfigMap", metadata: { name, labels: { app: "bench" } }, data: { key: "value".repeat(20) } };
    const response = await post(`/api/v1/namespaces/${NS}/configmaps`, body);
    expectStatus(response, 201, `create ${name}`);
    await response.arrayBuffer();
  });
}

function compileHello(outfile: string): void {
  const bun = resolve(import.meta.dir, "../node_modules/.bin/bun");
  const built = spawnSync(bun, ["build", "--compile", resolve(import.meta.dir, "_hello-bun-serve.ts"), "--outfile", outfile]);
  if (built.status !== 0) throw new Error(`compiling the ceiling failed: ${built.stderr}`);
}

const ms = (value: number) => `${value.toFixed(0)} ms`;
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(0)} MB`;
const ratio = (value: number, ceiling: number) => (value / ceiling).toFixed(1);

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { objects: { type: "string", default: "10000" } } });
  const counts = values.objects.split(",").map(Number).sort((a, b) => a - b);
  const work = await mkdtemp(join(tmpdir(), "kubun-memory-bench-"));
  const dataDir = join(work, "data");
  const rows: string[][] = [];
  try {
    const hello = join(work, "hello");
    compileHello(hello);

    const first = await startKubun(dataDir);
    const ca = first.credentials.ca;
    await first.stop();
    const ceiling = await measureStarts(() => startHello(hello, dataDir, ca));
    const restarts = await measureStarts(() => startKubun(dataDir));
    rows.push(["exec → /readyz 200, first start (makes the certificates)", ms(first.readyMs), "-", "-", "-"]);
    rows.push([
      `exec → /readyz 200, restart (median of ${RESTARTS})`,
      ms(restarts.readyMs),
      ms(GOALS.readyMs),
      ms(ceiling.readyMs),
      ratio(restarts.readyMs, ceiling.readyMs),
    ]);
    rows.push([
      `RSS idle, ${SETTLE_MS / 1000} s after start`,
      mb(restarts.idleBytes),
      mb(GOALS.idleBytes),
      mb(ceiling.idleBytes),
      ratio(restarts.idleBytes, ceiling.idleBytes),
    ]);

    let filled = 0;
    for (const count of counts) {
      const server = await startKubun(dataDir);
      await fill(server.credentials, filled, count);
      filled = count;
      await Bun.sleep(SETTLE_MS);
      const afterWrites = residentBytes(server.child.pid!);
      await Bun.sleep(LATER_MS - SETTLE_MS);
      const laterAfterWrites = residentBytes(server.child.pid!);
      await server.stop();
      const held = await startKubun(dataDir);
      await Bun.sleep(SETTLE_MS);
      const heldBytes = residentBytes(held.child.pid!);
      await held.stop();
      const goal = GOALS.perObjects.get(count);
      const n = count.toLocaleString("en-US");
      rows.push([
        `RSS with ${n} ConfigMaps, ${SETTLE_MS / 1000} s after creating them`,
        mb(afterWrites),
        goal ? mb(goal) : "-",
        mb(ceiling.idleBytes),
        ratio(afterWrites, ceiling.idleBytes),
      ]);
      rows.push([
        `RSS with ${n} ConfigMaps, ${LATER_MS / 1000} s after creating them`,
        mb(laterAfterWrites),
        goal ? mb(goal) : "-",
        mb(ceiling.idleBytes),
        ratio(laterAfterWrites, ceiling.idleBytes),
      ]);
      rows.push([
        `RSS with ${n} ConfigMaps, restarted on them`,
        mb(heldBytes),
        goal ? mb(goal) : "-",
        mb(ceiling.idleBytes),
        ratio(heldBytes, ceiling.idleBytes),
      ]);
      rows.push([
        `exec → /readyz 200, restart on ${n} ConfigMaps`,
        ms(held.readyMs),
        ms(GOALS.readyMs),
        ms(ceiling.readyMs),
        ratio(held.readyMs, ceiling.readyMs),
      ]);
    }
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  console.log(
    `| Measure (${navigator.hardwareConcurrency} cores, Bun ${Bun.version}) | kubun | goal | ceiling: trivial Bun.serve executable | ratio |`,
  );
  console.log("|---|---|---|---|---|");
  for (const row of rows) console.log(`| ${row.join(" | ")} |`);
}

await main();
