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
 * - both are done in place: the `-wal` file is one inode while any connection has the database open (SQLite deletes
 *   it only when the last connection closes). The descriptor is still checked against the path before each sync and
 *   reopened if the file was replaced.
 */
import { closeSync, fdatasync, fdatasyncSync, fstatSync, openSync, statSync } from "node:fs";
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
  #inode = 0;

  constructor(walPath: string) {
    this.#path = walPath;
  }

  /** Makes everything written to the WAL before the call durable; runs on the thread pool. */
  sync(): Promise<void> {
    let fd: number;
    try {
      fd = this.#current();
    } catch (error) {
      return Promise.reject(error);
    }
    return new Promise((resolve, reject) => fdatasync(fd, (error) => (error ? reject(error) : resolve())));
  }

  /**
   * Closing a descriptor drops every POSIX lock the process holds on its inode (fcntl(2)). SQLite takes none on the
   * `-wal` file (its WAL locks are on `-shm` and the database file), and the storage closes this after the connection.
   */
  /** The same sync on this thread. */
  syncNow(): void {
    fdatasyncSync(this.#current());
  }

  close(): void {
    if (this.#fd !== undefined) closeSync(this.#fd);
    this.#fd = undefined;
  }

  /** The open descriptor of the file now at the path (SQLite has created it by the first commit). */
  #current(): number {
    const inode = statSync(this.#path).ino;
    if (this.#fd !== undefined && inode === this.#inode) return this.#fd;
    this.close();
    // Read-only is enough for fdatasync; the file is SQLite's to write.
    this.#fd = openSync(this.#path, "r");
    this.#inode = fstatSync(this.#fd).ino;
    return this.#fd;
  }
}
