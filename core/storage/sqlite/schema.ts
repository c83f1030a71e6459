/**
 * Pragmas and tables (format 3, README "Storage format and flash writes"). `kv` indexes the live keys (key → create and mod
 * revision, small rows so one page holds many); `history` holds every kept revision's value once, by revision, so a
 * write appends one row and rewrites one `kv` leaf: no value copies, no per-key history index, no counter row.
 * Reads join `kv.mod_rev` to `history.rev`. `meta` keeps the marks a write does not carry: the compacted revision,
 * how far history was purged, and the current revision as of the last compaction (history's newest row may since
 * have been purged with a DELETE). `history.value` is TEXT or, since format 3, a BLOB (stored-value.ts): a column of
 * TEXT affinity stores a BLOB as it is.
 */
import type { SqliteDatabase } from "../../runtime/sqlite-driver.ts";
import { migrateFormat1 } from "./migrate-format-1.ts";

export type Synchronous = "FULL" | "NORMAL";

export interface Revisions {
  current: number;
  compacted: number;
}

/**
 * `PRAGMA user_version` of this layout; format 1 (no user_version) is migrated at open. Format 3 is format 2 whose
 * `history.value` may also be a BLOB (stored-value.ts): a format-2 database becomes format 3 as it is, its TEXT values
 * read unchanged, and a kubun reading format 2 refuses a format-3 file instead of taking a BLOB for text.
 */
export const FORMAT_VERSION = 3;

/** Format 2: every `history.value` is TEXT, which a kubun of format 2 reads as it is. */
export const TEXT_ONLY_FORMAT = 2;

/** The storage format an open file has: TEXT_ONLY_FORMAT or FORMAT_VERSION. */
export type StorageFormat = typeof TEXT_ONLY_FORMAT | typeof FORMAT_VERSION;

export interface OpenedSchema {
  revisions: Revisions;
  /** What the file is now; a store writes BLOBs only into FORMAT_VERSION. */
  format: StorageFormat;
}

/**
 * A WAL frame is one page: 1 KiB pages make a renewal of a ~800 B Lease two to four 1 KiB frames where 4 KiB pages
 * made it five to six 4 KiB frames (bench/sqlite-write-budget.ts). Takes effect for new databases and migrations.
 */
export const PAGE_SIZE = 1024;

/**
 * Checkpoint after this many WAL frames (4 MiB of 1 KiB pages), not SQLite's 1000: every checkpoint copies each
 * page changed since the last one into the database file once, so a longer WAL copies a page rewritten many
 * times (a Lease's `kv` leaf, a reused `history` page) once instead of once per 1000 frames.
 */
const WAL_AUTOCHECKPOINT_FRAMES = 4096;

/**
 * Page cache in KiB (SQLite's default is 2 MiB). A LIST joins every live key to its history row, one 1 KiB page
 * each: with 2 MiB, listing 10,000 ConfigMaps re-read ~10,000 pages from the OS per list and cost twice the CPU of
 * format 1 (23 against 10 ms); with 16 MiB the pages stay cached and it costs about the same (12 ms).
 */
const PAGE_CACHE_KIB = 16384;

const TABLES = `
CREATE TABLE IF NOT EXISTS kv (
  key TEXT PRIMARY KEY,
  create_rev INTEGER NOT NULL,
  mod_rev INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS history (
  rev INTEGER PRIMARY KEY,
  key TEXT NOT NULL,
  type INTEGER NOT NULL,
  create_rev INTEGER NOT NULL,
  prev_rev INTEGER,
  value TEXT
);
CREATE TABLE IF NOT EXISTS meta (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  current_rev INTEGER NOT NULL,
  compacted_rev INTEGER NOT NULL,
  purged_rev INTEGER NOT NULL DEFAULT 0
);
INSERT OR IGNORE INTO meta (id, current_rev, compacted_rev, purged_rev) VALUES (1, 0, 0, 0);
`;

/** The stored revisions: the newest history row or the meta mark, whichever is higher. */
export const STORED_REVISIONS_SQL = `SELECT MAX(current_rev, IFNULL((SELECT MAX(rev) FROM history), 0)) AS current_rev, compacted_rev
  FROM meta WHERE id = 1`;

/**
 * Configures the connection, creates or migrates the tables and returns the stored revision counters and the format
 * the file has (ensureFormat: a shared open leaves a format-2 file at format 2). `exclusive`
 * makes this connection the file's only one (README "Storage format and flash writes"): SQLite then keeps the WAL
 * index in heap memory instead of the `-shm` file every process maps, whose dirtied pages the kernel writes back
 * every 30 s. SQLite's rule (pragma.html#pragma_locking_mode, wal.html "Use of WAL Without Shared-Memory"): the mode
 * must be set before the connection's first access to a database in WAL mode, or the shared index is used from
 * then on; so it comes before anything that reads the file. The exclusive lock is taken at that first read and held
 * until the connection closes: another connection, in either mode, gets SQLITE_BUSY.
 */
export function initializeSchema(db: SqliteDatabase, synchronous: Synchronous, exclusive = false): OpenedSchema {
  if (exclusive) db.exec("PRAGMA locking_mode = EXCLUSIVE");
  // First, so that switching to WAL waits for another process's lock instead of failing with "database is locked".
  db.exec("PRAGMA busy_timeout = 5000");
  // Both take effect before the first table exists, or at the next VACUUM (rewriteIfAlone below).
  db.exec(`PRAGMA page_size = ${PAGE_SIZE}`);
  db.exec("PRAGMA auto_vacuum = NONE");
  const { format, migrated } = ensureFormat(db, exclusive);
  if (migrated || Number(db.prepare("PRAGMA auto_vacuum").get()!.auto_vacuum) !== 0 || mostlyFree(db)) rewriteIfAlone(db);
  db.exec("PRAGMA journal_mode = WAL");
  db.exec(`PRAGMA synchronous = ${synchronous}`);
  db.exec(`PRAGMA wal_autocheckpoint = ${WAL_AUTOCHECKPOINT_FRAMES}`);
  db.exec(`PRAGMA cache_size = -${PAGE_CACHE_KIB}`);
  // Truncate the WAL back to this size after checkpoints instead of keeping its high-water mark.
  db.exec("PRAGMA journal_size_limit = 67108864");
  const row = db.prepare(STORED_REVISIONS_SQL).get()!;
  return { revisions: { current: Number(row.current_rev), compacted: Number(row.compacted_rev) }, format };
}

/**
 * Creates the tables of an empty database (at FORMAT_VERSION) or migrates an older format; answers the format the file
 * has now and whether it migrated (rewrote the rows). Format 2's tables are format 3's, so a format-2 file becomes
 * format 3 by its user_version alone, and only when `alone` (the caller holds the file exclusively): a kubun of
 * format 2 may be serving from a shared file and would hand out a BLOB as text, so a shared open leaves the file at
 * format 2 and its store writes none. A format-1 file is migrated to format 2's tables and then follows that rule.
 */
export function ensureFormat(db: SqliteDatabase, alone: boolean): { format: StorageFormat; migrated: boolean } {
  return db.transaction(() => {
    const version = Number(db.prepare("PRAGMA user_version").get()!.user_version);
    if (version > FORMAT_VERSION) throw new Error(`kubun.db is of storage format ${version}; this kubun reads format ${FORMAT_VERSION}`);
    if (version === FORMAT_VERSION) return { format: FORMAT_VERSION, migrated: false };
    const empty = !db.prepare("SELECT 1 AS found FROM sqlite_master WHERE type = 'table' AND name = 'history'").get();
    const formatOne = !empty && Boolean(db.prepare("SELECT 1 AS found FROM pragma_table_info('history') WHERE name = 'prev_value'").get());
    if (formatOne) migrateFormat1(db, TABLES);
    else if (empty) db.exec(TABLES);
    const format = empty || alone ? FORMAT_VERSION : TEXT_ONLY_FORMAT;
    if (format !== version) db.exec(`PRAGMA user_version = ${format}`);
    return { format, migrated: formatOne };
  });
}

/** A file is rewritten at open when at least this share of it, and at least MIN_FREE_PAGES, is free. */
const FREE_SHARE_TO_VACUUM = 0.25;
const MIN_FREE_PAGES = 1024;

function mostlyFree(db: SqliteDatabase): boolean {
  const pages = db.prepare("SELECT freelist_count AS free, (SELECT page_count FROM pragma_page_count) AS total FROM pragma_freelist_count")
    .get()!;
  const free = Number(pages.free);
  return free >= MIN_FREE_PAGES && free >= Number(pages.total) * FREE_SHARE_TO_VACUUM;
}

/**
 * Rewrites the file with VACUUM at open, before anything is served, when this process is alone with it: with
 * PAGE_SIZE after a migration from format 1; without the auto-vacuum pointer map an earlier kubun kept, a page of
 * which every commit that allocates a page (a history row of ~800 B takes a page of its own) wrote, one WAL frame of
 * a renewal tick's eight (bench/flash-writes.bench.ts); without the free pages compaction left (it never gives them
 * back while serving, compaction.ts). Leaving WAL mode needs every other connection gone, so that switch, tried
 * without waiting, is the test: a VACUUM in WAL mode would run beside another process serving from the file and hold
 * its writes for the whole rewrite (~1 s per 100 MB). Another process there keeps the file as it is, which costs
 * disk space or bytes per write but nothing else.
 */
function rewriteIfAlone(db: SqliteDatabase): void {
  db.exec("PRAGMA busy_timeout = 0");
  try {
    if (db.prepare("PRAGMA journal_mode = DELETE").get()?.journal_mode !== "delete") return;
    db.exec(`PRAGMA page_size = ${PAGE_SIZE}`);
    db.exec("VACUUM");
  } catch {
    // Kept as it is; see above.
  } finally {
    db.exec("PRAGMA busy_timeout = 5000");
  }
}
