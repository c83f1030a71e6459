/**
 * Flash wear: bytes the server process makes the kernel write (/proc/<pid>/io write_bytes, what reaches the
 * block layer, page cache write-back included) while idle with `--simulated-nodes 3` (three node Leases renewed
 * every 10 s and the controllers' leader Lease), extrapolated to an hour; and bytes written per acknowledged
 * create of a 1 KiB ConfigMap (sequential, each answered after its commit). Goals (issue 15): ≤ 5 MB/hour idle,
 * ≤ 4× the object's size per create. FLASH_BENCH_BEFORE=<binary> (a build of an earlier commit, e.g. the format-1
 * storage of 2ef83ab) runs the same measures on that binary first, as the same-run baseline; either way each design's
 * floor is printed beside it: one 4 KiB kernel page per synced commit, what any design that makes every commit
 * durable before answering pays at least. Not a test; Linux only.
 * Run: node_modules/.bin/bun bench/flash-writes.bench.ts (after bash compile.sh); FLASH_BENCH_IDLE_S sets the idle
 * window (default 60 s).
 */
import { readFile } from "node:fs/promises";
import { startServer, type TestServer } from "../tests/harness.ts";
import { expectStatus } from "./_load.ts";

const IDLE_SECONDS = Number(process.env.FLASH_BENCH_IDLE_S ?? 60);
const WARM_UP_MS = 5_000;
const CREATES = 300;
const OBJECT_BYTES = 1024;
const JSON_HEADERS = { "Content-Type": "application/json", Accept: "application/json" };

/** The kernel accounts writes by the 4 KiB page it dirties: a synced commit dirties at least one. */
const KERNEL_PAGE = 4096;

/** The builds compared: a name and the binary (undefined: this build's dist/kubun). */
const DESIGNS: [string, string | undefined][] = [
  ...(process.env.FLASH_BENCH_BEFORE ? [["FLASH_BENCH_BEFORE build", process.env.FLASH_BENCH_BEFORE] as [string, string]] : []),
  ["this build", undefined],
];

async function writeBytes(pid: number): Promise<number> {
  const io = await readFile(`/proc/${pid}/io`, "utf8");
  return Number(/^write_bytes: (\d+)$/m.exec(io)![1]);
}

/** A ConfigMap whose JSON body is exactly `size` bytes. */
function configMapOfSize(name: string, size: number): string {
  const shell = (filler: string) =>
    JSON.stringify({ apiVersion: "v1", kind: "ConfigMap", metadata: { name, namespace: "default" }, data: { v: filler } });
  return shell("x".repeat(size - shell("").length));
}

/** The store's revision: a list's resourceVersion. */
async function revision(server: TestServer): Promise<number> {
  const response = await server.request("GET", "/api/v1/namespaces?limit=1", { headers: JSON_HEADERS });
  expectStatus(response, 200, "list");
  return Number(((await response.json()) as { metadata: { resourceVersion: string } }).metadata.resourceVersion);
}

/** Bytes and committed writes per hour while idle. */
async function idlePerHour(server: TestServer): Promise<{ bytes: number; writes: number }> {
  await Bun.sleep(WARM_UP_MS);
  const [bytesBefore, revisionBefore] = [await writeBytes(server.pid), await revision(server)];
  await Bun.sleep(IDLE_SECONDS * 1000);
  const [bytesAfter, revisionAfter] = [await writeBytes(server.pid), await revision(server)];
  // The revision reads are themselves no writes.
  return { bytes: (bytesAfter - bytesBefore) * (3600 / IDLE_SECONDS), writes: (revisionAfter - revisionBefore) * (3600 / IDLE_SECONDS) };
}

async function bytesPerCreate(server: TestServer): Promise<number> {
  const before = await writeBytes(server.pid);
  for (let i = 0; i < CREATES; i++) {
    const response = await server.request("POST", "/api/v1/namespaces/default/configmaps", {
      body: configMapOfSize(`flash-${i}`, OBJECT_BYTES),
      headers: JSON_HEADERS,
    });
    expectStatus(response, 201, "create");
    await response.text();
  }
  return ((await writeBytes(server.pid)) - before) / CREATES;
}

const rows: [string, string][] = [];
for (const [design, binary] of DESIGNS) {
  const server = await startServer(["--simulated-nodes=3"], { binary });
  try {
    const idle = await idlePerHour(server);
    rows.push([`${design}: idle writes with --simulated-nodes 3 (goal ≤ 5 MB/hour)`, `${(idle.bytes / 1e6).toFixed(2)} MB/hour`]);
    rows.push([
      `${design}: idle commits (Lease renewals) and bytes per commit`,
      `${Math.round(idle.writes).toLocaleString("en-US")}/hour, ${Math.round(idle.bytes / idle.writes).toLocaleString("en-US")} B each`,
    ]);
    rows.push([`${design}: floor, one kernel page per synced commit`, `${((idle.writes * KERNEL_PAGE) / 1e6).toFixed(2)} MB/hour`]);
    const perCreate = await bytesPerCreate(server);
    rows.push([
      `${design}: bytes written per create of a ${OBJECT_BYTES} B object (goal ≤ 4×)`,
      `${Math.round(perCreate).toLocaleString("en-US")} B (${(perCreate / OBJECT_BYTES).toFixed(1)}×)`,
    ]);
  } finally {
    await server.stop();
  }
}
console.log(`| Measure (idle window ${IDLE_SECONDS} s, ${CREATES} sequential creates) | Result |`);
console.log("|---|---|");
for (const [measure, result] of rows) console.log(`| ${measure} | ${result} |`);
