/**
 * Online snapshots of the SQLite store, in the manner of `etcdctl snapshot`: the live database file and WAL are
 * copied without a lock (live-copy.ts, so it works while the server holds the database exclusively) straight into
 * `FILE.part` and `FILE.part-wal`; SQLite's WAL recovery then makes them one committed state of the database — a
 * single revision, encrypted values still encrypted — which is checkpointed into `FILE.part`, made a standalone
 * rollback-mode file and renamed to FILE once on disk, as etcd's snapshot.SaveWithVersion writes `<path>.part` and
 * renames it when complete. The database is written once per snapshot, free pages included (as an etcd snapshot
 * keeps bbolt's). Writers go on meanwhile. A restore bumps the revision past anything the old server may have handed
 * out and marks everything before as compacted, as `etcdutl snapshot restore --bump-revision --mark-compacted` does,
 * so resourceVersions are never reused and clients watching from older ones get 410 and relist.
 */
import { createHash } from "node:crypto";
import {
  closeSync,
  existsSync,
  fdatasyncSync,
  fsyncSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { dirname } from "node:path";
import { openSqliteDatabase } from "../../runtime/sqlite.ts";
import type { SqliteDatabase } from "../../runtime/sqlite-driver.ts";
import { ensureFormat, STORED_REVISIONS_SQL } from "./schema.ts";
import { copyLiveFiles, type LiveCopyOptions } from "./live-copy.ts";

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

/** The files beside `FILE.part`, the snapshot being made: the WAL copy and what SQLite may add. */
const PART_COMPANIONS = ["-wal", "-journal", "-shm"];

/** What finishSnapshot needs: `copied` says whether `part` holds the live files' copy (else it is empty). */
export interface SnapshotParts {
  part: string;
  file: string;
  dbPath: string;
  copied: boolean;
}

export interface SaveSnapshotOptions extends LiveCopyOptions {
  /** Makes the copied files the snapshot; default finishSnapshot on this thread. */
  finish?: (parts: SnapshotParts) => Promise<SnapshotStatus>;
}

/**
 * Copies the live database at `dbPath` to `file` (which must not exist), readable by its owner only. A copy that
 * fails leaves nothing behind (retention counts only snapshots).
 */
export async function saveSnapshot(dbPath: string, file: string, options: SaveSnapshotOptions = {}): Promise<SnapshotStatus> {
  if (!existsSync(dbPath)) throw new Error(`no database at ${dbPath}`);
  if (existsSync(file)) throw new Error(`${file} already exists`);
  const part = `${file}.part`;
  const finish = options.finish ?? finishSnapshot;
  try {
    const copied = await copyLiveFiles(dbPath, part, options);
    return await finish({ part, file, dbPath, copied });
  } catch (error) {
    for (const suffix of ["", ...PART_COMPANIONS]) rmSync(part + suffix, { force: true });
    throw error;
  }
}

/**
 * Makes the snapshot out of `part`: the copied files become one standalone database there, or, for a live database
 * not in WAL mode, SQLite copies it into `part` under its read lock. Before it answers, both the snapshot and the
 * live WAL are on disk: a serving kubun commits at synchronous=NORMAL and makes each batch durable with its own
 * fdatasync afterwards (wal-sync.ts), so the copy may hold a batch whose sync has not run yet. Syncing the live WAL
 * after the copy makes every revision in the snapshot durable in the live file too, so a power loss cannot leave
 * the server below a snapshot already taken of it (etcd's snapshot streams only what its backend has committed and
 * synced). Then `part` is synced, renamed to `file`, and the directory synced, so `file` is only ever complete.
 */
export async function finishSnapshot({ part, file, dbPath, copied }: SnapshotParts): Promise<SnapshotStatus> {
  if (copied) makeStandalone(part);
  else await withDatabase(dbPath, (db) => db.copyInto(part));
  syncWalIfPresent(`${dbPath}-wal`);
  syncPath(part);
  renameSync(part, file);
  syncPath(dirname(file), fsyncSync);
  return snapshotStatus(file);
}

/**
 * Recovers the copied WAL into the copied database file and leaves WAL mode, so the file is a database of its own.
 * The exclusive locking mode comes before the first read, so recovery builds its index in heap memory and no `-shm`
 * is made (schema.ts initializeSchema).
 */
function makeStandalone(path: string): void {
  const db = openSqliteDatabase(path);
  try {
    db.exec("PRAGMA locking_mode = EXCLUSIVE");
    db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    const mode = db.prepare("PRAGMA journal_mode = DELETE").get()?.journal_mode;
    if (mode !== "delete") throw new Error(`the snapshot copy ${path} stayed in journal mode ${String(mode)}`);
  } finally {
    db.close();
  }
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
    // A snapshot an older kubun took is in its storage format. The restored file is new and no process holds it yet,
    // so it takes this kubun's format, as a new database does.
    ensureFormat(db, true);
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
