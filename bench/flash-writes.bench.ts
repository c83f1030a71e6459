/**
 * Flash wear: bytes the server process makes the kernel write (/proc/<pid>/io write_bytes, what reaches the
 * block layer, page cache write-back included) while idle with `--simulated-nodes 3` (three node Leases renewed
 * every 10 s and the controllers' leader Lease), extrapolated to an hour; and bytes written per acknowledged
 * create of a 1 KiB ConfigMap (sequential, each answered after its commit). Goals (issue 15): ≤ 5 MB/hour idle,
 * ≤ 4× the object's size per create. Baselines in the same run: raw bun:sqlite durable commits of one row (an update
 * of a Lease-sized row at the server's idle commit rate, an insert of the create's size), the least a durable commit
 * of that row writes; and FLASH_BENCH_BEFORE=<binary> (a build of an earlier commit, e.g. the format-1 storage of
 * 2ef83ab) runs the server measures on that binary first. Not a test; Linux only.
 * Run: node_modules/.bin/bun bench/flash-writes.bench.ts (after bash compile.sh); FLASH_BENCH_IDLE_S sets the idle
 * window (default 60 s).
 */
import { startServer, type TestServer } from "../tests/harness.ts";
import { expectStatus } from "./_load.ts";
import { writtenBytes } from "./_process.ts";
import { rawCommitWriteBytes } from "./_raw-sqlite.ts";

const IDLE_SECONDS = Number(process.env.FLASH_BENCH_IDLE_S ?? 60);
const WARM_UP_MS = 5_000;
const CREATES = 300;
const OBJECT_BYTES = 1024;
const JSON_HEADERS = { "Content-Type": "application/json", Accept: "application/json" };

/** The raw baselines' row sizes: a node Lease as stored, and the create's object as stored (metadata added). */
const LEASE_BYTES = 700;
const STORED_OBJECT_BYTES = 1300;
const RAW_COMMITS = 200;
/** kubun's page size (core/storage/sqlite/schema.ts PAGE_SIZE). */
const PAGE_SIZE = 1024;

/** The builds compared: a name and the binary (undefined: this build's dist/kubun). */
const DESIGNS: [string, string | undefined][] = [
  ...(process.env.FLASH_BENCH_BEFORE ? [["FLASH_BENCH_BEFORE build", process.env.FLASH_BENCH_BEFORE] as [string, string]] : []),
  ["this build", undefined],
];

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
  const [bytesBefore, revisionBefore] = [writtenBytes(server.pid), await revision(server)];
  await Bun.sleep(IDLE_SECONDS * 1000);
  const [bytesAfter, revisionAfter] = [writtenBytes(server.pid), await revision(server)];
  // The revision reads are themselves no writes.
  return { bytes: (bytesAfter - bytesBefore) * (3600 / IDLE_SECONDS), writes: (revisionAfter - revisionBefore) * (3600 / IDLE_SECONDS) };
}

async function bytesPerCreate(server: TestServer): Promise<number> {
  const before = writtenBytes(server.pid);
  for (let i = 0; i < CREATES; i++) {
    const response = await server.request("POST", "/api/v1/namespaces/default/configmaps", {
      body: configMapOfSize(`flash-${i}`, OBJECT_BYTES),
      headers: JSON_HEADERS,
    });
    expectStatus(response, 201, "create");
    await response.text();
  }
  return ((writtenBytes(server.pid)) - before) / CREATES;
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
    const rawUpdate = await rawCommitWriteBytes(RAW_COMMITS, LEASE_BYTES, { update: true, pageSize: PAGE_SIZE });
    rows.push([
      `${design}: baseline, raw one-row durable updates of a ${LEASE_BYTES} B row at that commit rate`,
      `${((idle.writes * rawUpdate) / 1e6).toFixed(2)} MB/hour (${Math.round(rawUpdate).toLocaleString("en-US")} B each; ratio ${
        (idle.bytes / (idle.writes * rawUpdate)).toFixed(2)
      })`,
    ]);
    const perCreate = await bytesPerCreate(server);
    rows.push([
      `${design}: bytes written per create of a ${OBJECT_BYTES} B object (goal ≤ 4×)`,
      `${Math.round(perCreate).toLocaleString("en-US")} B (${(perCreate / OBJECT_BYTES).toFixed(1)}×)`,
    ]);
    const rawInsert = await rawCommitWriteBytes(RAW_COMMITS, STORED_OBJECT_BYTES, { update: false, pageSize: PAGE_SIZE });
    rows.push([
      `${design}: baseline, raw one-row durable inserts of ${STORED_OBJECT_BYTES} B`,
      `${Math.round(rawInsert).toLocaleString("en-US")} B (${(rawInsert / OBJECT_BYTES).toFixed(1)}×; ratio ${
        (perCreate / rawInsert).toFixed(2)
      })`,
    ]);
  } finally {
    await server.stop();
  }
}
console.log(`| Measure (idle window ${IDLE_SECONDS} s, ${CREATES} sequential creates) | Result |`);
console.log("|---|---|");
for (const [measure, result] of rows) console.log(`| ${measure} | ${result} |`);
