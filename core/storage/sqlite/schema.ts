/**
 * Pragmas and tables. Current state lives in `kv` (one row per live key, so get and prefix scans
 * are O(log n)); `history` is the bounded event log for watch replay and reads at past revisions;
 * `meta` holds the revision counters so they survive restarts even when history is compacted away.
 */
import type { SqliteDatabase } from "../../runtime/sqlite-driver.ts";

export type Synchronous = "FULL" | "NORMAL";

export interface Revisions {
  current: number;
  compacted: number;
}

const TABLES = `
CREATE TABLE IF NOT EXISTS kv (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL,
  create_rev INTEGER NOT NULL,
  mod_rev INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS history (
  rev INTEGER PRIMARY KEY,
  key TEXT NOT NULL,
  type INTEGER NOT NULL,
  value TEXT,
  prev_value TEXT,
  prev_create_rev INTEGER,
  prev_mod_rev INTEGER,
  time_ms INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS history_key_rev ON history (key, rev);
CREATE TABLE IF NOT EXISTS meta (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  current_rev INTEGER NOT NULL,
  compacted_rev INTEGER NOT NULL
);
INSERT OR IGNORE INTO meta (id, current_rev, compacted_rev) VALUES (1, 0, 0);
`;

/** Configures the connection, creates missing tables and returns the stored revision counters. */
export function initializeSchema(db: SqliteDatabase, synchronous: Synchronous): Revisions {
  // First, so that switching to WAL waits for another process's lock instead of failing with "database is locked".
  db.exec("PRAGMA busy_timeout = 5000");
  // auto_vacuum only takes effect before the first table exists; it lets compaction return pages.
  db.exec("PRAGMA auto_vacuum = INCREMENTAL");
  db.exec("PRAGMA journal_mode = WAL");
  db.exec(`PRAGMA synchronous = ${synchronous}`);
  // Truncate the WAL back to this size after checkpoints instead of keeping its high-water mark.
  db.exec("PRAGMA journal_size_limit = 67108864");
  db.transaction(() => db.exec(TABLES));
  const row = db.prepare("SELECT current_rev, compacted_rev FROM meta WHERE id = 1").get()!;
  return { current: Number(row.current_rev), compacted: Number(row.compacted_rev) };
}
