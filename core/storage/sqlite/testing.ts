/**
 * Test kit: what the WAL of a database file holds, page by page, and which b-tree each page belongs to; a WAL sync
 * held by the test; Leases as kubun stores them, and a database made format 2 again.
 */
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SqliteDatabase } from "../../runtime/sqlite-driver.ts";
import { openSqliteDatabase } from "../../runtime/sqlite.ts";
import { SQLITE_DEFLATED_KEY_PREFIXES } from "../../server/storage-backend.ts";
import { TEXT_ONLY_FORMAT } from "./schema.ts";
import { decodeStoredValue } from "./stored-value.ts";
import { openSqliteStorage, type SqliteStorageOptions } from "./mod.ts";

/** A WAL sync the test finishes or fails by hand, for tests of the storage's users (the watch broker). */
export { HeldSync } from "./_held-sync.ts";

/** Runs `fn` with the path of a database file in a new temporary directory, removed afterwards. */
export async function withDatabasePath<T>(fn: (path: string) => T | Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), "kubun-sqlite-"));
  try {
    return await fn(join(dir, "kubun.db"));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const WAL_HEADER_BYTES = 32;
const FRAME_HEADER_BYTES = 24;

/** The page number of each frame in `<path>-wal`, how many frames end a transaction, and the page size. */
export function walFrames(path: string): { pages: number[]; commits: number; pageSize: number } {
  const wal = readFileSync(`${path}-wal`);
  const pageSize = wal.readUInt32BE(8);
  const pages: number[] = [];
  let commits = 0;
  for (let offset = WAL_HEADER_BYTES; offset + FRAME_HEADER_BYTES + pageSize <= wal.length; offset += FRAME_HEADER_BYTES + pageSize) {
    pages.push(wal.readUInt32BE(offset));
    // A commit frame records the database size after the transaction; other frames record 0.
    if (wal.readUInt32BE(offset + 4) !== 0) commits++;
  }
  return { pages, commits, pageSize };
}

/**
 * What each page is now, by SQLite's dbstat table: "<b-tree>", "<b-tree> overflow" or "<b-tree> internal"; page 1
 * is "page 1 (header)". Pages absent (pointer-map and free pages) have no entry.
 */
export function pageOwners(db: SqliteDatabase): Map<number, string> {
  const owners = new Map<number, string>([[1, "page 1 (header)"]]);
  for (const row of db.prepare("SELECT name, pageno, pagetype FROM dbstat").all()) {
    const kind = row.pagetype === "leaf" ? "" : ` ${row.pagetype}`;
    if (Number(row.pageno) !== 1) owners.set(Number(row.pageno), `${row.name}${kind}`);
  }
  return owners;
}

/** Makes the database at `path` what a kubun of format 2 would have left: every value text, user_version 2. */
export function rewriteAsFormatTwo(path: string): void {
  const db = openSqliteDatabase(path);
  try {
    db.transaction(() => {
      const setValue = db.prepare("UPDATE history SET value = ?2 WHERE rev = ?1");
      for (const row of db.prepare("SELECT rev, key, value FROM history WHERE typeof(value) = 'blob'").all()) {
        setValue.run(row.rev, decodeStoredValue(String(row.key), row.value));
      }
    });
    db.exec(`PRAGMA user_version = ${TEXT_ONLY_FORMAT}`);
  } finally {
    db.close();
  }
}

/** The prefix of the keys Leases are stored under: the one the server has SQLite deflate. */
/**
 * Leaves a WAL-mode database at `path` with many free pages and no `-wal` (its store closed): 20 keys of 2,000 B
 * rewritten 60 times, then compacted, which the next store opening it alone rewrites (schema.ts rewriteIfAlone).
 * Answers the value every key holds.
 */
export async function leaveMostlyFree(path: string, options: SqliteStorageOptions = {}): Promise<string> {
  const storage = openSqliteStorage(path, options);
  const value = "x".repeat(2000);
  const keys = Array.from({ length: 20 }, (_, i) => `/a/${i}`);
  await Promise.all(keys.map((key) => storage.write({ op: "create", key, value })));
  for (let round = 0; round < 60; round++) {
    await Promise.all(keys.map((key) => storage.write({ op: "update", key, value, expectedRevision: 0 })));
  }
  await storage.compact(storage.currentRevision());
  await storage.close();
  return value;
}

/**
 * A one-key database of the store's tables in rollback-journal mode (which a snapshot copies through SQLite under its
 * read lock), held by an exclusive transaction on the returned connection: a copy waits until it commits or closes.
 */
export function holdRollbackStore(dbPath: string): SqliteDatabase {
  const holder = openSqliteDatabase(dbPath);
  holder.exec("CREATE TABLE meta (id INTEGER PRIMARY KEY, current_rev INTEGER, compacted_rev INTEGER)");
  holder.exec("CREATE TABLE kv (key TEXT PRIMARY KEY, value TEXT)");
  holder.exec("CREATE TABLE history (rev INTEGER PRIMARY KEY)");
  holder.exec("INSERT INTO meta VALUES (1, 1, 0); INSERT INTO kv VALUES ('/core/configmaps/default/a', '{}')");
  holder.exec("BEGIN EXCLUSIVE");
  return holder;
}

export const LEASE_PREFIX = SQLITE_DEFLATED_KEY_PREFIXES[0]!;

/**
 * A Lease as kubun stores a kubelet's node Lease (`identity` false) or the apiserver identity Lease (`identity`
 * true), renewed `second` seconds after 10:00:00: the values a renewal tick writes.
 */
export function leaseValue(name: string, second: number, identity = false): string {
  const time = `2026-11-26T10:${String(Math.floor(second / 60) % 60).padStart(2, "0")}:${String(second % 60).padStart(2, "0")}`;
  // As random as real uids are, so that they compress no better.
  const uid = (n: number) =>
    createHash("sha256").update(`${n}/${name}`).digest("hex").slice(0, 32).replace(/^(.{8})(.{4})(.{4})(.{4})/, "$1-$2-$3-$4-");
  const metadata = identity
    ? {
      name,
      namespace: "kube-system",
      labels: { "apiserver.kubernetes.io/identity": "kube-apiserver", "kubernetes.io/hostname": "vm" },
      uid: uid(1),
      creationTimestamp: "2026-11-26T09:11:12Z",
      managedFields: [{
        manager: "kube-apiserver",
        operation: "Update",
        apiVersion: "coordination.k8s.io/v1",
        time: `${time}Z`,
        fieldsType: "FieldsV1",
        fieldsV1: {
          "f:metadata": { "f:labels": { ".": {}, "f:apiserver.kubernetes.io/identity": {}, "f:kubernetes.io/hostname": {} } },
          "f:spec": { "f:holderIdentity": {}, "f:leaseDurationSeconds": {}, "f:renewTime": {} },
        },
      }],
    }
    : {
      name,
      namespace: "kube-node-lease",
      ownerReferences: [{ apiVersion: "v1", kind: "Node", name, uid: uid(2) }],
      uid: uid(3),
      creationTimestamp: "2026-11-26T09:11:12Z",
      managedFields: [{
        manager: "kubelet",
        operation: "Update",
        apiVersion: "coordination.k8s.io/v1",
        time: `${time}Z`,
        fieldsType: "FieldsV1",
        fieldsV1: {
          "f:metadata": { "f:ownerReferences": { ".": {}, [`k:{"uid":"${uid(2)}"}`]: {} } },
          "f:spec": { "f:holderIdentity": {}, "f:leaseDurationSeconds": {}, "f:renewTime": {} },
        },
      }],
    };
  const holderIdentity = identity ? `${name}_9242dd1d-57f0-47a2-8e48-18088fe5d30d` : name;
  const spec = { holderIdentity, leaseDurationSeconds: identity ? 3600 : 40, renewTime: `${time}.459000Z` };
  return JSON.stringify({ apiVersion: "coordination.k8s.io/v1", kind: "Lease", metadata, spec });
}
