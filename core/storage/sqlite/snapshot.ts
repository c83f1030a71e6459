/**
 * Online snapshots of the SQLite store, in the manner of `etcdctl snapshot`: a consistent copy of the live files taken
 * without a lock (live-copy.ts, so it works while the server holds the database exclusively), opened privately and
 * written out by `VACUUM INTO` (or, under Deno, the online backup API) as one read transaction sees it: a single
 * revision, encrypted values still encrypted. Writers go on meanwhile. A restore bumps the revision past anything the
 * old server may have handed out and marks everything before as compacted, as `etcdutl snapshot restore
 * --bump-revision --mark-compacted` does, so resourceVersions are never reused and clients watching from older ones
 * get 410 and relist.
 */
import { createHash } from "node:crypto";
import { closeSync, existsSync, fdatasyncSync, fsyncSync, openSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { openSqliteDatabase } from "../../runtime/sqlite.ts";
import type { SqliteDatabase } from "../../runtime/sqlite-driver.ts";
import { ensureFormat, STORED_REVISIONS_SQL } from "./schema.ts";
import { type LiveCopyOptions, withLiveCopy } from "./live-copy.ts";

export interface SnapshotStatus {
  /** The store's revision when the snapshot was taken. */
  revision: number;
  /** Live keys (objects and the server's own records). */
  keys: number;
  /** Bytes. */
  size: number;
  /** SHA-256 of the file. */
  hash: string;
}

/** How far a restore moves the revision by default: far beyond the writes a server makes between snapshots. */
export const DEFAULT_REVISION_BUMP = 1_000_000_000;

/** Runs `fn` on the database at `path` and closes it once `fn` is done (its promise settled, for an async one). */
function withDatabase<T>(path: string, fn: (db: SqliteDatabase) => T): T {
  const db = openSqliteDatabase(path);
  let result: T;
  try {
    db.exec("PRAGMA busy_timeout = 5000");
    result = fn(db);
  } catch (error) {
    db.close();
    throw error;
  }
  if (result instanceof Promise) return result.finally(() => db.close()) as T;
  db.close();
  return result;
}

/**
 * Puts what was written to `path` on disk through a read-only descriptor (enough for both calls): `fdatasync` for a
 * file, `fsync` for a directory, so the entries made in it last too (etcd's fileutil.Fsync of its directories).
 */
function syncPath(path: string, sync: (fd: number) => void = fdatasyncSync): void {
  const fd = openSync(path, "r");
  try {
    sync(fd);
  } finally {
    closeSync(fd);
  }
}

/** A server closing meanwhile removes its WAL: then there is nothing of it to sync. */
function syncWalIfPresent(walPath: string): void {
  try {
    syncPath(walPath);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
}

export interface SaveSnapshotOptions extends LiveCopyOptions {
  /** Writes the consistent private copy out as the snapshot; default writeSnapshotFile on this thread. */
  write?: (copy: string, file: string, dbPath: string) => Promise<SnapshotStatus>;
}

/**
 * Copies the live database at `dbPath` to `file` (which must not exist), readable by its owner only. A copy that
 * fails leaves no file behind (retention counts only snapshots).
 */
export async function saveSnapshot(dbPath: string, file: string, options: SaveSnapshotOptions = {}): Promise<SnapshotStatus> {
  if (!existsSync(dbPath)) throw new Error(`no database at ${dbPath}`);
  // The copy wants a missing or empty file; creating it first gives it owner-only permissions from the start.
  closeSync(openSync(file, "wx", 0o600));
  const write = options.write ?? writeSnapshotFile;
  try {
    // The private copy goes beside the snapshot, on the filesystem chosen to hold snapshots.
    return await withLiveCopy(dbPath, dirname(file), (copy) => write(copy, file, dbPath), options);
  } catch (error) {
    rmSync(file, { force: true });
    throw error;
  }
}

/**
 * Writes the consistent copy at `copy` of the live database at `dbPath` into the empty `file`. Before it answers,
 * both the snapshot and the live WAL are on disk: a serving kubun commits at synchronous=NORMAL and makes each batch
 * durable with its own fdatasync afterwards (wal-sync.ts), so the copy may hold a batch whose sync has not run yet.
 * Syncing the live WAL after the copy makes every revision in the snapshot durable in the live file too, so a power
 * loss cannot leave the server below a snapshot already taken of it (etcd's snapshot streams only what its backend
 * has committed and synced).
 */
export async function writeSnapshotFile(copy: string, file: string, dbPath: string): Promise<SnapshotStatus> {
  await withDatabase(copy, (db) => db.copyInto(file));
  syncWalIfPresent(`${dbPath}-wal`);
  syncPath(file);
  return snapshotStatus(file);
}

export function snapshotStatus(file: string): SnapshotStatus {
  if (!existsSync(file)) throw new Error(`no snapshot at ${file}`);
  const { revision, keys } = withDatabase(file, (db) => ({
    revision: Number(db.prepare(STORED_REVISIONS_SQL).get()?.current_rev),
    keys: Number(db.prepare("SELECT count(*) AS n FROM kv").get()?.n),
  }));
  return { revision, keys, size: statSync(file).size, hash: createHash("sha256").update(readFileSync(file)).digest("hex") };
}

/** Writes the snapshot as the database at `dbPath` (which must not exist yet), revision moved by `bump`. */
export function restoreSnapshot(file: string, dbPath: string, bump = DEFAULT_REVISION_BUMP): SnapshotStatus {
  const status = snapshotStatus(file);
  if (existsSync(dbPath)) throw new Error(`${dbPath} already exists; restore into a new data directory`);
  writeFileSync(dbPath, readFileSync(file), { mode: 0o600, flag: "wx" });
  // On disk before the revision bump commits: SQLite's commit syncs its journal and the pages it changes, not the
  // bytes written here.
  syncPath(dbPath);
  const revision = status.revision + bump;
  withDatabase(dbPath, (db) => {
    // A snapshot an older kubun took is in its storage format.
    ensureFormat(db);
    db.transaction(() => {
      db.prepare("UPDATE meta SET current_rev = ?1, compacted_rev = ?1, purged_rev = ?1 WHERE id = 1").run(revision);
      // Everything is compacted: only the live keys' values stay.
      db.exec("DELETE FROM history WHERE rev NOT IN (SELECT mod_rev FROM kv)");
    });
  });
  // The new database's entry in the data directory, and the data directory's in its parent (restore makes it).
  syncPath(dirname(dbPath), fsyncSync);
  syncPath(dirname(dirname(dbPath)), fsyncSync);
  return { ...status, revision };
}
