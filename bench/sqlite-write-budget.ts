/**
 * What one durable commit of the SQLite store writes, by component: WAL frames per commit by the b-tree (table,
 * overflow, interior page, page 1 header, pointer map) each frame's page belongs to, WAL bytes, and the kernel's
 * write_bytes for this process (what reaches the block layer, 4 KiB per dirtied page). Two workloads: a Lease
 * renewal (update of a ~730 B Lease) and a create of a 1.3 KiB object, each 100 sequential commits after 300
 * objects exist. Baseline in the same run: raw bun:sqlite updating one 730 B row per transaction (WAL,
 * synchronous=FULL, the store's page size), the least any durable commit of that row writes. Not a test; Linux only.
 * Run: node_modules/.bin/bun bench/sqlite-write-budget.ts
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openSqliteDatabase } from "../core/runtime/sqlite.ts";
import type { WriteOp } from "../core/storage/storage.ts";
import { openSqliteStorage, type SqliteStorage } from "../core/storage/sqlite/mod.ts";
import { pageOwners, walFrames } from "../core/storage/sqlite/testing.ts";
import { writtenBytes } from "./_process.ts";

const COMMITS = 100;
const LEASE = JSON.stringify({
  apiVersion: "coordination.k8s.io/v1",
  kind: "Lease",
  metadata: {
    name: "sim-0",
    namespace: "kube-node-lease",
    uid: "0b4f3c5e-1f1e-4c1b-9a57-3a1f2f9f9d11",
    creationTimestamp: "2026-11-25T22:00:00Z",
    ownerReferences: [{ apiVersion: "v1", kind: "Node", name: "sim-0", uid: "6a0e7cf2-3d33-4e5e-8a8d-5f0a0b0c0d0e" }],
    managedFields: [{
      manager: "kubelet",
      operation: "Update",
      apiVersion: "coordination.k8s.io/v1",
      time: "2026-11-25T22:00:00Z",
      fieldsType: "FieldsV1",
      fieldsV1: { "f:spec": { "f:holderIdentity": {}, "f:leaseDurationSeconds": {}, "f:renewTime": {} } },
    }],
  },
  spec: { holderIdentity: "sim-0", leaseDurationSeconds: 40, renewTime: "2026-11-25T22:00:00.000000Z" },
});
const OBJECT = "x".repeat(1300);
const LEASE_KEY = "/registry/leases/kube-node-lease/sim-0";

/** The Lease with spec.renewTime moved on by i seconds. */
const renewed = (i: number) =>
  LEASE.replace("22:00:00.000000Z", `22:${String(Math.floor(i / 60) % 60).padStart(2, "0")}:${String(i % 60).padStart(2, "0")}.000000Z`);

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

async function storeBudget(dir: string, name: string, op: (i: number) => WriteOp): Promise<Budget> {
  const path = join(dir, `${name}.db`);
  let storage: SqliteStorage | undefined;
  try {
    return await measure(path, async () => {
      storage = openSqliteStorage(path);
      for (let i = 0; i < 300; i++) await storage.write({ op: "create", key: `/registry/configmaps/default/pre-${i}`, value: OBJECT });
      await storage.write({ op: "create", key: LEASE_KEY, value: LEASE });
    }, async (i) => void (await storage!.write(op(i))));
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
  const renewal = await storeBudget(dir, "renewal", (i) => ({
    op: "update",
    key: LEASE_KEY,
    value: renewed(i),
    expectedRevision: 0,
  }));
  const create = await storeBudget(dir, "create", (i) => ({ op: "create", key: `/registry/configmaps/default/new-${i}`, value: OBJECT }));
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
  row(`create of a ${OBJECT.length} B object`, create);
  row(`baseline: raw one-row update of the ${LEASE.length} B Lease`, raw);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
