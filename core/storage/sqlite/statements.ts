/** Every SQL statement the backend runs, prepared once per connection. */
import type { SqliteDatabase } from "../../runtime/sqlite-driver.ts";
import { EVENT_TYPE_CODES } from "./rows.ts";
import { STORED_REVISIONS_SQL } from "./schema.ts";
import { MultiRowStatement, placeholderRows } from "./multi-row.ts";

const IN_RANGE = (column: string) => `${column} >= ?1 AND ${column} > ?2 AND ${column} < ?3`;

/** A live key with its value: `kv` joined to the history row of its mod revision. */
const CURRENT = "SELECT k.key, h.value, k.create_rev, k.mod_rev FROM kv k JOIN history h ON h.rev = k.mod_rev";

/** A history row with its predecessor's value, as historyRowToEvent reads it. */
const EVENTS = `SELECT h.rev, h.key, h.type, h.create_rev, h.prev_rev, h.value, p.value AS prev_value
  FROM history h LEFT JOIN history p ON p.rev = h.prev_rev`;

/**
 * The keys in range as they were at revision ?4, without values: live rows untouched since then, plus, for keys
 * written after ?4, the predecessor of their first later event (a create after ?4 has none). The two halves are
 * disjoint because a live row's mod_rev is its key's newest event. No per-key history index: the second half scans
 * the history after ?4, which compaction bounds. Values are joined only to the rows a page returns.
 */
const STATE_AT_REVISION = `
  SELECT key, create_rev, mod_rev FROM kv WHERE ${IN_RANGE("key")} AND mod_rev <= ?4
  UNION ALL
  SELECT key, create_rev, prev_rev FROM
    (SELECT key, MIN(rev) AS rev, create_rev, prev_rev FROM history WHERE rev > ?4 AND ${IN_RANGE("key")} GROUP BY key)
   WHERE prev_rev IS NOT NULL`;

/**
 * History rows no read can need once the events in (?1, ?2] are compacted: the predecessors of those events, and
 * those events that are deletes. What stays is each key's newest row at or below the compaction point unless it is
 * a delete, as etcd's keyIndex.compact (server/storage/mvcc/key_index.go) keeps "the largest one" and drops a
 * tombstone.
 */
const SUPERSEDED_IN = `
  SELECT prev_rev FROM history WHERE rev > ?1 AND rev <= ?2 AND prev_rev IS NOT NULL
  UNION ALL
  SELECT rev FROM history WHERE rev > ?1 AND rev <= ?2 AND type = ${EVENT_TYPE_CODES.DELETED}`;

export function prepareStatements(db: SqliteDatabase) {
  return {
    getCurrent: db.prepare(`${CURRENT} WHERE k.key = ?`),
    getAtRevision: db.prepare(`
      ${CURRENT} WHERE k.key = ?1 AND k.mod_rev <= ?2
      UNION ALL
      SELECT f.key, p.value, f.create_rev, f.prev_rev FROM
        (SELECT key, create_rev, prev_rev FROM history WHERE key = ?1 AND rev > ?2 ORDER BY rev LIMIT 1) f
        JOIN history p ON p.rev = f.prev_rev`),
    // Parameters: lower, after, upper, limit (-1 = all).
    rangeCurrent: db.prepare(`${CURRENT} WHERE ${IN_RANGE("k.key")} ORDER BY k.key LIMIT ?4`),
    countCurrent: db.prepare(`SELECT COUNT(*) AS n FROM kv WHERE ${IN_RANGE("key")}`),
    // Parameters: lower, after, upper, revision, limit (-1 = all).
    rangeAtRevision: db.prepare(`SELECT s.key, h.value, s.create_rev, s.mod_rev
      FROM (SELECT * FROM (${STATE_AT_REVISION}) ORDER BY key LIMIT ?5) s JOIN history h ON h.rev = s.mod_rev ORDER BY s.key`),
    countAtRevision: db.prepare(`SELECT COUNT(*) AS n FROM (${STATE_AT_REVISION})`),
    // Parameters: lower, after (""), upper, afterRevision.
    eventsSince: db.prepare(`${EVENTS} WHERE h.rev > ?4 AND ${IN_RANGE("h.key")} ORDER BY h.rev`),

    // A write batch's writes (write-batch.ts), the inserts each run over many rows. A lookup or delete stays one key
    // a run: SQLite builds an ephemeral table of an IN list at each run, which cost a lone write ~2 µs more.
    // Parameters: key, create_rev, mod_rev of each row.
    saveKv: new MultiRowStatement(db, 3, (rows) =>
      `INSERT INTO kv (key, create_rev, mod_rev) VALUES ${placeholderRows(rows, 3)}
        ON CONFLICT (key) DO UPDATE SET create_rev = excluded.create_rev, mod_rev = excluded.mod_rev`),
    deleteKv: db.prepare("DELETE FROM kv WHERE key = ?"),
    // Parameters: rev, key, type, create_rev, prev_rev, value of each row.
    appendHistory: new MultiRowStatement(
      db,
      6,
      (rows) => `INSERT INTO history (rev, key, type, create_rev, prev_rev, value) VALUES ${placeholderRows(rows, 6)}`,
    ),
    // Another process may have compacted further already; the marks never move back. The current revision is
    // saved with the mark because purging may remove history's newest row (a delete).
    saveCompactedRevision: db.prepare(`UPDATE meta SET compacted_rev = MAX(compacted_rev, ?),
      current_rev = MAX(current_rev, IFNULL((SELECT MAX(rev) FROM history), 0)) WHERE id = 1`),
    storedRevisions: db.prepare(STORED_REVISIONS_SQL),
    // Parameters: afterRevision, throughRevision, limit.
    historyBetween: db.prepare(`${EVENTS} WHERE h.rev > ? AND h.rev <= ? ORDER BY h.rev LIMIT ?`),
    dataVersion: db.prepare("PRAGMA data_version"),
    purgedRevision: db.prepare("SELECT purged_rev FROM meta WHERE id = 1"),
    // Parameters: after, through.
    deleteSuperseded: db.prepare(`DELETE FROM history WHERE rev IN (${SUPERSEDED_IN})`),
    savePurgedRevision: db.prepare("UPDATE meta SET purged_rev = MAX(purged_rev, ?) WHERE id = 1"),
  };
}

export type Statements = ReturnType<typeof prepareStatements>;
