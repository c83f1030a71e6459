/**
 * The denominator of the create ratio: bun:sqlite (through kubun's tiny adapter, no other layer) inserting
 * one row per transaction in WAL mode with synchronous=FULL, the durability kubun's default promises. And kubun's
 * SQLite store alone under concurrent writers, to separate what group commit reaches from the request path.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openSqliteDatabase } from "../core/runtime/sqlite.ts";
import { openSqliteStorage } from "../core/storage/sqlite/mod.ts";
import { rate } from "./_load.ts";
import { writtenBytes } from "./_process.ts";

/**
 * A fresh database in a temporary directory, in WAL mode with synchronous=FULL (and `pageSize` when given), with a kv
 * table, removed after `use`. Held in exclusive locking mode, as a server holds its data directory by default: the
 * WAL index in heap memory, no shared `-shm` file for the kernel to write back.
 */
async function withDurableDatabase<T>(
  pageSize: number | undefined,
  valueType: "BLOB" | "TEXT",
  use: (db: ReturnType<typeof openSqliteDatabase>) => T | Promise<T>,
): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), "kubun-bench-sqlite-"));
  const db = openSqliteDatabase(join(dir, "raw.db"));
  try {
    db.exec("PRAGMA locking_mode = EXCLUSIVE");
    if (pageSize) db.exec(`PRAGMA page_size = ${pageSize}`);
    db.exec("PRAGMA journal_mode=WAL");
    db.exec("PRAGMA synchronous=FULL");
    db.exec(`CREATE TABLE kv (key TEXT PRIMARY KEY, value ${valueType} NOT NULL)`);
    return await use(db);
  } finally {
    db.close();
    await rm(dir, { recursive: true, force: true });
  }
}

export function rawInsertRate(count: number, payloadBytes: number): Promise<number> {
  return withDurableDatabase(undefined, "BLOB", (db) => {
    const insert = db.prepare("INSERT INTO kv (key, value) VALUES (?, ?)");
    const payload = "x".repeat(payloadBytes);
    const started = performance.now();
    for (let i = 0; i < count; i++) db.transaction(() => insert.run(`/registry/configmaps/bench/raw-${i}`, payload));
    return count / ((performance.now() - started) / 1000);
  });
}

/** Durable creates per second through SqliteStorage (default synchronous=FULL) from `concurrency` writers in this process. */
export async function storageCreateRate(count: number, concurrency: number, payloadBytes: number): Promise<number> {
  const dir = await mkdtemp(join(tmpdir(), "kubun-bench-storage-"));
  const storage = openSqliteStorage(join(dir, "kubun.db"));
  try {
    const payload = "x".repeat(payloadBytes);
    return await rate(count, concurrency, async (i) => {
      await storage.write({ op: "create", key: `/registry/configmaps/bench/storage-${i}`, value: payload });
    });
  } finally {
    await storage.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Kernel write_bytes of this process per row inserted by durable bun:sqlite commits (WAL, synchronous=FULL,
 * `pageSize`) of `rowsPerCommit` rows of `payloadBytes` each (default 1; more is what group commit shares among
 * concurrent writers). The least a durable commit of those rows costs, the baseline of the flash-wear figures.
 */
export async function rawCommitWriteBytes(
  count: number,
  payloadBytes: number,
  options: { pageSize: number; rowsPerCommit?: number },
): Promise<number> {
  return withDurableDatabase(options.pageSize, "TEXT", (db) => {
    const insert = db.prepare("INSERT INTO kv (key, value) VALUES (?, ?)");
    const value = (i: number) => `${i}`.padStart(payloadBytes, "x");
    db.transaction(() => insert.run("/raw/0", value(0)));
    const rows = options.rowsPerCommit ?? 1;
    const before = writtenBytes("self");
    for (let i = 1; i <= count; i++) {
      db.transaction(() => {
        for (let row = 0; row < rows; row++) insert.run(`/raw/${i}/${row}`, value(i));
      });
    }
    return (writtenBytes("self") - before) / (count * rows);
  });
}

/**
 * Kernel write_bytes of this process over `windowMs` while bun:sqlite commits `rows` rows of `rowBytes` (rewritten
 * each time) in one durable transaction every `periodMs` (WAL, synchronous=FULL, `pageSize`): the same durable work
 * as a server's renewals sharing a tick, over the same wall-clock window, so the kernel's write-back of the WAL is
 * counted as it is for the server.
 */
export async function rawTickWriteBytes(
  windowMs: number,
  options: { rows: number; rowBytes: number; periodMs: number; pageSize: number },
): Promise<number> {
  return withDurableDatabase(options.pageSize, "TEXT", async (db) => {
    const upsert = db.prepare("INSERT OR REPLACE INTO kv (key, value) VALUES (?, ?)");
    const tick = (i: number) =>
      db.transaction(() => {
        for (let row = 0; row < options.rows; row++) upsert.run(`/raw/${row}`, `${i}`.padStart(options.rowBytes, "x"));
      });
    tick(0);
    const before = writtenBytes("self");
    const started = Date.now();
    for (let i = 1; Date.now() - started + options.periodMs <= windowMs; i++) {
      await Bun.sleep(options.periodMs);
      tick(i);
    }
    await Bun.sleep(Math.max(0, windowMs - (Date.now() - started)));
    return writtenBytes("self") - before;
  });
}
