/** Every SQL statement the backend runs, prepared once per connection. */
import type { SqliteDatabase } from "../../runtime/sqlite-driver.ts";

const IN_RANGE = (column: string) => `${column} >= ?1 AND ${column} > ?2 AND ${column} < ?3`;

/**
 * The keys in range as they were at revision ?4: live rows untouched since then, plus, for keys
 * written after ?4, the previous value of their first later event (a create after ?4 has none).
 * The two halves are disjoint because a live row's mod_rev is its key's newest event.
 */
const STATE_AT_REVISION = `
  SELECT key, value, create_rev, mod_rev FROM kv WHERE ${IN_RANGE("key")} AND mod_rev <= ?4
  UNION ALL
  SELECT h.key, h.prev_value, h.prev_create_rev, h.prev_mod_rev FROM history h
   WHERE ${IN_RANGE("h.key")} AND h.rev > ?4 AND h.prev_mod_rev IS NOT NULL
     AND NOT EXISTS (SELECT 1 FROM history e WHERE e.key = h.key AND e.rev > ?4 AND e.rev < h.rev)`;

export function prepareStatements(db: SqliteDatabase) {
  return {
    getCurrent: db.prepare("SELECT key, value, create_rev, mod_rev FROM kv WHERE key = ?"),
    getAtRevision: db.prepare(`
      SELECT key, value, create_rev, mod_rev FROM kv WHERE key = ?1 AND mod_rev <= ?2
      UNION ALL
      SELECT key, prev_value, prev_create_rev, prev_mod_rev FROM
        (SELECT * FROM history WHERE key = ?1 AND rev > ?2 ORDER BY rev LIMIT 1)
       WHERE prev_mod_rev IS NOT NULL`),
    // Parameters: lower, after, upper, limit (-1 = all).
    rangeCurrent: db.prepare(`SELECT key, value, create_rev, mod_rev FROM kv WHERE ${IN_RANGE("key")} ORDER BY key LIMIT ?4`),
    countCurrent: db.prepare(`SELECT COUNT(*) AS n FROM kv WHERE ${IN_RANGE("key")}`),
    // Parameters: lower, after, upper, revision, limit (-1 = all).
    rangeAtRevision: db.prepare(`SELECT * FROM (${STATE_AT_REVISION}) ORDER BY key LIMIT ?5`),
    countAtRevision: db.prepare(`SELECT COUNT(*) AS n FROM (${STATE_AT_REVISION})`),
    // Parameters: lower, after (""), upper, afterRevision.
    eventsSince: db.prepare(`SELECT * FROM history WHERE rev > ?4 AND ${IN_RANGE("key")} ORDER BY rev`),

    insertKv: db.prepare("INSERT INTO kv (key, value, create_rev, mod_rev) VALUES (?, ?, ?, ?)"),
    updateKv: db.prepare("UPDATE kv SET value = ?, mod_rev = ? WHERE key = ?"),
    deleteKv: db.prepare("DELETE FROM kv WHERE key = ?"),
    insertHistory: db.prepare(`INSERT INTO history (rev, key, type, value, prev_value, prev_create_rev, prev_mod_rev, time_ms)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?)`),
    saveCurrentRevision: db.prepare("UPDATE meta SET current_rev = ? WHERE id = 1"),
    // Another process may have compacted further already; the mark never moves back.
    saveCompactedRevision: db.prepare("UPDATE meta SET compacted_rev = MAX(compacted_rev, ?) WHERE id = 1"),
    storedRevisions: db.prepare("SELECT current_rev, compacted_rev FROM meta WHERE id = 1"),
    // Parameters: afterRevision, throughRevision, limit.
    historyBetween: db.prepare("SELECT * FROM history WHERE rev > ? AND rev <= ? ORDER BY rev LIMIT ?"),
    dataVersion: db.prepare("PRAGMA data_version"),
    oldestHistoryRevision: db.prepare("SELECT MIN(rev) AS rev FROM history"),
    deleteHistoryThrough: db.prepare("DELETE FROM history WHERE rev <= ?"),
  };
}

export type Statements = ReturnType<typeof prepareStatements>;
