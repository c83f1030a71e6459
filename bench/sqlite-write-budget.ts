/**
 * What one durable commit of the SQLite store writes, by component: WAL frames per commit by the b-tree (table,
 * overflow, interior page, page 1 header, pointer map) each frame's page belongs to, WAL bytes, and the kernel's
 * write_bytes for this process (what reaches the block layer, 4 KiB per dirtied page). Workloads: a Lease renewal
 * (update of a 762 B node Lease), an idle tick's four Lease renewals in one commit with the values as text and with
 * the Leases deflated (format 3, stored-value.ts), and a create of a 1.3 KiB object, each 100 sequential commits after
 * 300 objects exist. Baseline in the same run: raw bun:sqlite updating one Lease row per transaction (WAL,
 * synchronous=FULL, the store's page size), the least any durable commit of that row writes. Not a test; Linux only.
 * Run: node_modules/.bin/bun bench/sqlite-write-budget.ts
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openSqliteDatabase } from "../core/runtime/sqlite.ts";
import type { WriteOp } from "../core/storage/storage.ts";
import { openSqliteStorage, type SqliteStorage } from "../core/storage/sqlite/mod.ts";
import { LEASE_PREFIX, leaseValue, pageOwners, walFrames } from "../core/storage/sqlite/testing.ts";
import { writtenBytes } from "./_process.ts";

const COMMITS = 100;
const OBJECT = "x".repeat(1300);
const LEASE_KEY = `${LEASE_PREFIX}kube-node-lease/sim-0`;
const LEASE = leaseValue("sim-0", 0);
/** The Lease renewed i * 10 seconds later. */
const renewed = (i: number) => leaseValue("sim-0", i * 10);
/** An idle `--simulated-nodes 3` tick: three node Leases and the apiserver identity Lease, renewed in one commit. */
const IDENTITY = "kube-apiserver-lphjr5z7h3imqn7sokpnsue3ha";
const TICK: { key: string; value: (i: number) => string }[] = [
  ...["sim-0", "sim-1", "sim-2"].map((name) => ({
    key: `${LEASE_PREFIX}kube-node-lease/${name}`,
    value: (i: number) => leaseValue(name, i * 10),
  })),
  { key: `${LEASE_PREFIX}kube-system/${IDENTITY}`, value: (i: number) => leaseValue(IDENTITY, i * 10, true) },
];

interface Budget {
  pageSize: number;
  framesPerCommit: number;
  walBytesPerCommit: number;
  writeBytesPerCommit: number;
  byOwner: string;
}

/** Runs `commit` COMMITS times on a database at `path` after `prepare`, with the WAL emptied in between. */
async function measure(path: string, prepare: () => Promise<void>, commit: (i: number) => Promise<void>): Promise<Budget> {
  await prepare();
  const side = openSqliteDatabase(path);
  try {
    side.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    const before = writtenBytes("self");
    for (let i = 0; i < COMMITS; i++) await commit(i);
    const written = writtenBytes("self") - before;
    const { pages, commits, pageSize } = walFrames(path);
    const owners = pageOwners(side);
    const counts = new Map<string, number>();
    for (const page of pages) {
      const owner = owners.get(page) ?? "pointer map / freelist";
      counts.set(owner, (counts.get(owner) ?? 0) + 1);
    }
    const byOwner = [...counts].sort((a, b) => b[1] - a[1]).map(([owner, n]) => `${owner} ${(n / commits).toFixed(2)}`).join(", ");
    return {
      pageSize,
      framesPerCommit: pages.length / commits,
      walBytesPerCommit: (pages.length * (pageSize + 24)) / commits,
      writeBytesPerCommit: written / COMMITS,
      byOwner,
    };
  } finally {
    side.close();
  }
}

/** COMMITS commits of `ops(i)` each, after 300 objects and the tick's Leases exist; Leases deflated when `deflated`. */
async function storeBudget(dir: string, name: string, ops: (i: number) => WriteOp[], deflated = false): Promise<Budget> {
  const path = join(dir, `${name}.db`);
  let storage: SqliteStorage | undefined;
  try {
    return await measure(path, async () => {
      storage = openSqliteStorage(path, { compressedKeyPrefixes: deflated ? [LEASE_PREFIX] : [] });
      for (let i = 0; i < 300; i++) await storage.write({ op: "create", key: `/registry/configmaps/default/pre-${i}`, value: OBJECT });
      for (const lease of TICK) await storage.write({ op: "create", key: lease.key, value: lease.value(0) });
    }, async (i) => void (await Promise.all(ops(i).map((op) => storage!.write(op)))));
  } finally {
    await storage?.close();
  }
}

async function rawBudget(dir: string, pageSize: number): Promise<Budget> {
  const path = join(dir, "raw.db");
  const db = openSqliteDatabase(path);
  try {
    db.exec(`PRAGMA page_size = ${pageSize}`);
    db.exec("PRAGMA journal_mode = WAL");
    db.exec("PRAGMA synchronous = FULL");
    db.exec("CREATE TABLE kv (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
    const update = db.prepare("UPDATE kv SET value = ? WHERE key = ?");
    return await measure(
      path,
      async () => void db.transaction(() => db.prepare("INSERT INTO kv VALUES (?, ?)").run(LEASE_KEY, LEASE)),
      async (i) => void db.transaction(() => update.run(renewed(i), LEASE_KEY)),
    );
  } finally {
    db.close();
  }
}

const dir = mkdtempSync(join(tmpdir(), "kubun-write-budget-"));
try {
  const renewal = await storeBudget(dir, "renewal", (i) => [{ op: "update", key: LEASE_KEY, value: renewed(i + 1), expectedRevision: 0 }]);
  const tickOps = (i: number): WriteOp[] =>
    TICK.map((lease) => ({ op: "update", key: lease.key, value: lease.value(i + 1), expectedRevision: 0 }));
  const tick = await storeBudget(dir, "tick", tickOps);
  const tickDeflated = await storeBudget(dir, "tick-deflated", tickOps, true);
  const create = await storeBudget(dir, "create", (i) => [{ op: "create", key: `/registry/configmaps/default/new-${i}`, value: OBJECT }]);
  // Read while measuring: closing the store's last connection may delete its WAL.
  const pageSize = renewal.pageSize;
  const raw = await rawBudget(dir, pageSize);
  console.log(`| Commit (${COMMITS} sequential, page size ${pageSize}) | WAL frames | WAL bytes | kernel write_bytes | frames by b-tree |`);
  console.log("|---|---|---|---|---|");
  const row = (name: string, b: Budget) =>
    console.log(
      `| ${name} | ${b.framesPerCommit.toFixed(2)} | ${Math.round(b.walBytesPerCommit)} | ${
        Math.round(b.writeBytesPerCommit)
      } | ${b.byOwner} |`,
    );
  row(`Lease renewal (${LEASE.length} B)`, renewal);
  row(`tick of four Lease renewals (3 node, 1 identity), values as text (format 2)`, tick);
  row(`the same tick, Leases deflated with the dictionary (format 3)`, tickDeflated);
  row(`create of a ${OBJECT.length} B object`, create);
  row(`baseline: raw one-row update of the ${LEASE.length} B Lease`, raw);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
