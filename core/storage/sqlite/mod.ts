/** The SQLite storage backend, opened with Bun's driver. */
import { openSqliteDatabase } from "../../runtime/sqlite.ts";
import { SqliteStorage, type SqliteStorageOptions } from "./sqlite-storage.ts";

export { SqliteStorage } from "./sqlite-storage.ts";
export type { SqliteStorageOptions, SqliteStorageStats } from "./sqlite-storage.ts";
export { DEFAULT_REVISION_BUMP, restoreSnapshot, saveSnapshot, type SnapshotStatus, snapshotStatus } from "./snapshot.ts";
export { scheduleSnapshots } from "./snapshot-schedule.ts";
export { removeStaleCopies, withLiveCopy } from "./live-copy.ts";
export { COMMIT_BATCH_METRIC, commitBatchRecorder } from "./commit-metrics.ts";

/** Opens (creating if needed) the database at `path`; ":memory:" gives a throwaway store. */
export function openSqliteStorage(path: string, options: SqliteStorageOptions = {}): SqliteStorage {
  const db = openSqliteDatabase(path);
  try {
    return new SqliteStorage(db, options);
  } catch (error) {
    // A file another process holds (SQLITE_BUSY) or of a newer format: let go of it at once.
    db.close();
    throw error;
  }
}
