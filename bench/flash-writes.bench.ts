/**
 * Flash wear: bytes the server process makes the kernel write (/proc/<pid>/io write_bytes, what reaches the
 * block layer, page cache write-back included) while idle with `--simulated-nodes 3` (three node Leases and the
 * apiserver identity Lease renewed every 10 s, and the controllers' leader election), extrapolated to an hour;
 * and bytes written per acknowledged create of a 1 KiB ConfigMap, from one client (each answered after its own
 * commit) and from 16 concurrent clients (group commit shares each synced page among a batch). Goals (issue 15):
 * ≤ 5 MB/hour idle, ≤ 4× the object's size per create. Durable transactions are counted by the server's
 * kubun_storage_commit_batch_size. Baselines in the same run: raw bun:sqlite durable commits (four Lease-sized
 * rows in one transaction every 10 s during the idle window, the least kube's renewal cadence costs when a tick's
 * renewals share a commit; one 16 B row per tick, what a durable commit on kube's cadence costs whatever it
 * carries: the WAL's last 4 KiB page (the raw database held exclusively, as the server holds its own, so there
 * is no shared wal-index to write back); inserts of the create's size, one per
 * commit or as many per commit as the server's mean batch), the least a durable commit of those rows writes; the physical floor, a record of the object's size
 * and of its stored size appended to a plain file and fdatasync'd per record (bench/_durable-append.ts); and
 * FLASH_BENCH_BEFORE=<binary> (a build of an earlier commit) runs the server measures on that binary first. Not a
 * test; Linux only.
 * Run: node_modules/.bin/bun bench/flash-writes.bench.ts (after bash compile.sh); FLASH_BENCH_IDLE_S sets the idle
 * window (default 60 s).
 */
import { startServer, type TestServer } from "../tests/harness.ts";
import { commitBatchBuckets } from "../tests/commit-batches.ts";
import { expectStatus, rate } from "./_load.ts";
import { writtenBytes } from "./_process.ts";
import { rawCommitWriteBytes, rawTickWriteBytes } from "./_raw-sqlite.ts";
import { durableAppendWriteBytes } from "./_durable-append.ts";

const IDLE_SECONDS = Number(process.env.FLASH_BENCH_IDLE_S ?? 60);
const WARM_UP_MS = 5_000;
const CREATES = 300;
const CONCURRENT_CLIENTS = 16;
const OBJECT_BYTES = 1024;
const JSON_HEADERS = { "Content-Type": "application/json", Accept: "application/json" };

/** The raw baselines' row sizes: a node Lease as stored, and the create's object as stored (metadata added). */
const LEASE_BYTES = 700;
/** The Leases renewed each 10 s tick with --simulated-nodes 3: three node Leases and the apiserver identity Lease. */
const LEASES_PER_TICK = 4;
const TICK_MS = 10_000;
const STORED_OBJECT_BYTES = 1300;
/** A row small enough that a commit of it is one WAL frame: what a durable commit every tick costs by itself. */
const CADENCE_ROW_BYTES = 16;
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

/** rawTickWriteBytes of `rows` rows of `rowBytes` on the tick, run by bench/_raw-tick-process.ts. */
async function rawTickInOwnProcess(windowMs: number, rows: number, rowBytes: number): Promise<number> {
  const child = Bun.spawn([
    process.execPath,
    new URL("./_raw-tick-process.ts", import.meta.url).pathname,
    ...[
      windowMs,
      rows,
      rowBytes,
      TICK_MS,
      PAGE_SIZE,
    ].map(String),
  ], { stdout: "pipe", stderr: "inherit" });
  const output = await new Response(child.stdout).text();
  if ((await child.exited) !== 0) throw new Error("bench/_raw-tick-process.ts failed");
  return Number(output.trim());
}

/** The store's revision: a list's resourceVersion. */
async function revision(server: TestServer): Promise<number> {
  const response = await server.request("GET", "/api/v1/namespaces?limit=1", { headers: JSON_HEADERS });
  expectStatus(response, 200, "list");
  return Number(((await response.json()) as { metadata: { resourceVersion: string } }).metadata.resourceVersion);
}

/** Durable transactions committed so far (the group-commit histogram's count). */
async function transactions(server: TestServer): Promise<number> {
  return (await commitBatchBuckets(server)).get("+Inf")!;
}

/** Bytes, committed writes and durable transactions per hour while idle. */
async function idlePerHour(server: TestServer): Promise<{ bytes: number; writes: number; transactions: number }> {
  await Bun.sleep(WARM_UP_MS);
  const [bytesBefore, revisionBefore, transactionsBefore] = [writtenBytes(server.pid), await revision(server), await transactions(server)];
  await Bun.sleep(IDLE_SECONDS * 1000);
  const [bytesAfter, revisionAfter, transactionsAfter] = [writtenBytes(server.pid), await revision(server), await transactions(server)];
  // The revision and metrics reads are themselves no writes.
  const perHour = 3600 / IDLE_SECONDS;
  return {
    bytes: (bytesAfter - bytesBefore) * perHour,
    writes: (revisionAfter - revisionBefore) * perHour,
    transactions: (transactionsAfter - transactionsBefore) * perHour,
  };
}

/** Bytes written per create and creates per durable transaction, `clients` creating at once. */
async function bytesPerCreate(server: TestServer, prefix: string, clients: number): Promise<{ bytes: number; batch: number }> {
  const [before, transactionsBefore] = [writtenBytes(server.pid), await transactions(server)];
  await rate(CREATES, clients, async (i) => {
    const response = await server.request("POST", "/api/v1/namespaces/default/configmaps", {
      body: configMapOfSize(`${prefix}-${i}`, OBJECT_BYTES),
      headers: JSON_HEADERS,
    });
    expectStatus(response, 201, "create");
    await response.text();
  });
  const bytes = (writtenBytes(server.pid) - before) / CREATES;
  return { bytes, batch: CREATES / ((await transactions(server)) - transactionsBefore) };
}

const perObject = (bytes: number) => `${Math.round(bytes).toLocaleString("en-US")} B (${(bytes / OBJECT_BYTES).toFixed(1)}×)`;

const rows: [string, string][] = [];
for (const [design, binary] of DESIGNS) {
  const server = await startServer(["--simulated-nodes=3"], { binary });
  try {
    const [idle, rawTicks, cadenceFloor] = await Promise.all([
      idlePerHour(server),
      // Alongside the idle window (after its warm-up), so both see the same kernel write-back.
      Bun.sleep(WARM_UP_MS).then(() =>
        rawTickWriteBytes(IDLE_SECONDS * 1000, { rows: LEASES_PER_TICK, rowBytes: LEASE_BYTES, periodMs: TICK_MS, pageSize: PAGE_SIZE })
      ),
      // In a process of its own: write_bytes counts a whole process, and the baseline above runs in this one.
      Bun.sleep(WARM_UP_MS).then(() => rawTickInOwnProcess(IDLE_SECONDS * 1000, 1, CADENCE_ROW_BYTES)),
    ]);
    rows.push([`${design}: idle writes with --simulated-nodes 3 (goal ≤ 5 MB/hour)`, `${(idle.bytes / 1e6).toFixed(2)} MB/hour`]);
    rows.push([
      `${design}: idle Lease writes and the durable transactions carrying them, bytes per transaction`,
      `${Math.round(idle.writes).toLocaleString("en-US")} writes/hour in ${Math.round(idle.transactions).toLocaleString("en-US")}, ${
        Math.round(idle.bytes / idle.transactions).toLocaleString("en-US")
      } B each`,
    ]);
    const rawPerHour = rawTicks * (3600 / IDLE_SECONDS);
    rows.push([
      `${design}: baseline, raw SQLite committing ${LEASES_PER_TICK} rows of ${LEASE_BYTES} B in one durable transaction every ${
        TICK_MS / 1000
      } s, same window`,
      `${(rawPerHour / 1e6).toFixed(2)} MB/hour (ratio ${(idle.bytes / rawPerHour).toFixed(2)})`,
    ]);
    rows.push([
      `${design}: floor of the cadence, raw SQLite committing one ${CADENCE_ROW_BYTES} B row in a durable transaction every ${
        TICK_MS / 1000
      } s, same window`,
      `${(cadenceFloor * (3600 / IDLE_SECONDS) / 1e6).toFixed(2)} MB/hour`,
    ]);
    const sequential = await bytesPerCreate(server, "flash", 1);
    rows.push([`${design}: bytes written per sequential create of a ${OBJECT_BYTES} B object (goal ≤ 4×)`, perObject(sequential.bytes)]);
    const rawInsert = await rawCommitWriteBytes(RAW_COMMITS, STORED_OBJECT_BYTES, { pageSize: PAGE_SIZE });
    rows.push([
      `${design}: baseline, raw one-row durable inserts of ${STORED_OBJECT_BYTES} B`,
      `${perObject(rawInsert)}; ratio ${(sequential.bytes / rawInsert).toFixed(2)}`,
    ]);
    for (const size of [OBJECT_BYTES, STORED_OBJECT_BYTES]) {
      const floor = durableAppendWriteBytes(RAW_COMMITS, size);
      rows.push([
        `${design}: floor, a ${size} B record appended to a file and fdatasync'd per record`,
        `${perObject(floor)}; ratio ${(sequential.bytes / floor).toFixed(2)}`,
      ]);
    }
    const concurrent = await bytesPerCreate(server, "flash-concurrent", CONCURRENT_CLIENTS);
    rows.push([
      `${design}: bytes written per create from ${CONCURRENT_CLIENTS} concurrent clients (goal ≤ 4×)`,
      `${perObject(concurrent.bytes)}, ${concurrent.batch.toFixed(1)} creates per durable transaction`,
    ]);
    const rowsPerCommit = Math.max(1, Math.round(concurrent.batch));
    const rawBatch = await rawCommitWriteBytes(RAW_COMMITS, STORED_OBJECT_BYTES, { pageSize: PAGE_SIZE, rowsPerCommit });
    rows.push([
      `${design}: baseline, raw durable inserts of ${STORED_OBJECT_BYTES} B, ${rowsPerCommit} per commit`,
      `${perObject(rawBatch)}; ratio ${(concurrent.bytes / rawBatch).toFixed(2)}`,
    ]);
  } finally {
    await server.stop();
  }
}
console.log(`| Measure (idle window ${IDLE_SECONDS} s, ${CREATES} creates per row) | Result |`);
console.log("|---|---|");
for (const [measure, result] of rows) console.log(`| ${measure} | ${result} |`);
