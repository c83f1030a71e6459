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

export async function rawInsertRate(count: number, payloadBytes: number): Promise<number> {
  const dir = await mkdtemp(join(tmpdir(), "kubun-bench-sqlite-"));
  const db = openSqliteDatabase(join(dir, "raw.db"));
  try {
    db.exec("PRAGMA journal_mode=WAL");
    db.exec("PRAGMA synchronous=FULL");
    db.exec("CREATE TABLE kv (key TEXT PRIMARY KEY, value BLOB NOT NULL)");
    const insert = db.prepare("INSERT INTO kv (key, value) VALUES (?, ?)");
    const payload = "x".repeat(payloadBytes);
    const started = performance.now();
    for (let i = 0; i < count; i++) db.transaction(() => insert.run(`/registry/configmaps/bench/raw-${i}`, payload));
    return count / ((performance.now() - started) / 1000);
  } finally {
    db.close();
    await rm(dir, { recursive: true, force: true });
  }
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
 * Kernel write_bytes of this process per row written by durable bun:sqlite commits (WAL, synchronous=FULL,
 * `pageSize`) of rows of `payloadBytes`: `update` rewrites one row per commit, otherwise each commit inserts
 * `rowsPerCommit` new ones (default 1; more is what group commit shares among concurrent writers). The least a
 * durable commit of those rows costs, the baseline of the flash-wear figures.
 */
export async function rawCommitWriteBytes(
  count: number,
  payloadBytes: number,
  options: { update: boolean; pageSize: number; rowsPerCommit?: number },
): Promise<number> {
  const dir = await mkdtemp(join(tmpdir(), "kubun-bench-sqlite-"));
  const db = openSqliteDatabase(join(dir, "raw.db"));
  try {
    db.exec(`PRAGMA page_size = ${options.pageSize}`);
    db.exec("PRAGMA journal_mode=WAL");
    db.exec("PRAGMA synchronous=FULL");
    db.exec("CREATE TABLE kv (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
    const insert = db.prepare("INSERT INTO kv (key, value) VALUES (?, ?)");
    const update = db.prepare("UPDATE kv SET value = ? WHERE key = ?");
    const value = (i: number) => `${i}`.padStart(payloadBytes, "x");
    db.transaction(() => insert.run("/raw/0", value(0)));
    const rows = options.update ? 1 : options.rowsPerCommit ?? 1;
    const before = writtenBytes("self");
    for (let i = 1; i <= count; i++) {
      db.transaction(() => {
        if (options.update) update.run(value(i), "/raw/0");
        else for (let row = 0; row < rows; row++) insert.run(`/raw/${i}/${row}`, value(i));
      });
    }
    return (writtenBytes("self") - before) / (count * rows);
  } finally {
    db.close();
    await rm(dir, { recursive: true, force: true });
  }
}
