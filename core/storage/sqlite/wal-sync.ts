/**
 * The sync SQLite's `synchronous=FULL` makes at the end of every WAL commit (wal.c `sqlite3WalFrames`: with
 * `WAL_SYNC_FLAGS` set, `sqlite3OsSync` of the WAL after the commit frame; pager.c `sqlite3PagerSetFlags` sets those
 * flags only for FULL), done instead by an `fdatasync` of the `-wal` file on the runtime's thread pool, so the
 * JavaScript thread goes on parsing requests and committing the next batch while the disk works.
 *
 * Why this is the same durability, with the connection at `synchronous=NORMAL` (sqlite.org/pragma.html#pragma_synchronous:
 * in WAL mode "the WAL file is synchronized before each checkpoint and the database file is synchronized after each
 * completed checkpoint and the WAL file header is synchronized when a WAL file begins to be reused"):
 * - a commit's frames are in the WAL file's page cache when COMMIT returns; an fdatasync begun after that puts them
 *   on disk, file size included (fdatasync(2)); fsync works on the file, not the descriptor, so it also covers frames
 *   another process (sharing the database) wrote;
 * - the WAL is overwritten from its start (restart, `walRestartLog`) or truncated (journal_size_limit, compaction's
 *   TRUNCATE checkpoint) only after a checkpoint has copied its frames into the database, and that checkpoint syncs
 *   the WAL before and the database after (wal.c `walCheckpoint`), so frames whose own sync is still pending are
 *   already durable by the time they are overwritten; the restart's new header is synced by SQLite itself;
 * - both are done in place, so the descriptor opened on the first sync stays the `-wal` file's: SQLite unlinks the WAL
 *   only when a closing connection gets an EXCLUSIVE lock on the database (wal.c `sqlite3WalClose`: "this guarantees
 *   that the connection associated with this log file is the only connection"), which the SHARED lock this
 *   connection holds while open prevents, and this descriptor is closed after the connection. (A per-sync stat of
 *   the path to check cost ~25 µs of CPU in Bun, more than the sync's own hop to the thread pool.)
 */
import { closeSync, fdatasync, fdatasyncSync, openSync } from "node:fs";
import type { SqliteDatabase } from "../../runtime/sqlite-driver.ts";
import type { LogSync } from "./durability-gate.ts";

/**
 * The `-wal` file of the database's main file; undefined for an in-memory database, or when the file is not in WAL
 * mode (a file system without the shared memory WAL needs keeps SQLite's rollback journal, synced by SQLite).
 */
export function walPathOf(db: SqliteDatabase): string | undefined {
  if (db.prepare("PRAGMA journal_mode").get()?.journal_mode !== "wal") return undefined;
  const main = db.prepare("PRAGMA database_list").all().find((row) => row.name === "main");
  const file = typeof main?.file === "string" ? main.file : "";
  return file === "" ? undefined : `${file}-wal`;
}

export class WalSync implements LogSync {
  readonly #path: string;
  #fd: number | undefined;

  constructor(walPath: string) {
    this.#path = walPath;
  }

  /** Makes everything written to the WAL before the call durable; runs on the thread pool. */
  sync(): Promise<void> {
    let fd: number;
    try {
      fd = this.#opened();
    } catch (error) {
      return Promise.reject(error);
    }
    return new Promise((resolve, reject) => fdatasync(fd, (error) => (error ? reject(error) : resolve())));
  }

  /** The same sync on this thread. */
  syncNow(): void {
    fdatasyncSync(this.#opened());
  }

  /**
   * Closing a descriptor drops every POSIX lock the process holds on its inode (fcntl(2)). SQLite takes none on the
   * `-wal` file (its WAL locks are on `-shm` and the database file), and the storage closes this after the connection.
   */
  close(): void {
    if (this.#fd !== undefined) closeSync(this.#fd);
    this.#fd = undefined;
  }

  /** SQLite has created the file by the first commit, before the first sync. Read-only is enough for fdatasync. */
  #opened(): number {
    this.#fd ??= openSync(this.#path, "r");
    return this.#fd;
  }
}
