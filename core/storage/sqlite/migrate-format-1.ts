/**
 * Format 1 → format 2, inside the caller's transaction. Format 1 kept each live value in `kv` and gave every history
 * row its value and its previous value (`prev_value`, `prev_create_rev`, `prev_mod_rev`) plus a `meta` row written
 * on every commit. Format 2 keeps each revision's value once, in `history`; a history row names its predecessor by
 * revision. So the migration keeps every event after the compacted revision (watchers resume across the upgrade),
 * turns each event's previous value into the row of the revision it came from, and gives each live key a row at
 * its mod revision. The revision counters carry over unchanged, so no resourceVersion is handed out twice.
 */
import type { SqliteDatabase } from "../../runtime/sqlite-driver.ts";
import { EVENT_TYPE_CODES } from "./rows.ts";

const { ADDED, MODIFIED } = EVENT_TYPE_CODES;

export function migrateFormat1(db: SqliteDatabase, formatTwoTables: string): void {
  db.exec(`
    ALTER TABLE kv RENAME TO kv_format_1;
    ALTER TABLE history RENAME TO history_format_1;
    DROP INDEX IF EXISTS history_key_rev;
    ALTER TABLE meta RENAME TO meta_format_1;
  `);
  db.exec(formatTwoTables);
  db.exec(`
    INSERT INTO history (rev, key, type, create_rev, prev_rev, value)
      SELECT rev, key, type, CASE type WHEN ${ADDED} THEN rev ELSE prev_create_rev END, prev_mod_rev, value
      FROM history_format_1;
    INSERT OR IGNORE INTO history (rev, key, type, create_rev, prev_rev, value)
      SELECT prev_mod_rev, key, ${MODIFIED}, prev_create_rev, NULL, prev_value
      FROM history_format_1 WHERE prev_mod_rev IS NOT NULL;
    INSERT OR IGNORE INTO history (rev, key, type, create_rev, prev_rev, value)
      SELECT mod_rev, key, CASE WHEN create_rev = mod_rev THEN ${ADDED} ELSE ${MODIFIED} END, create_rev, NULL, value
      FROM kv_format_1;
    INSERT INTO kv (key, create_rev, mod_rev) SELECT key, create_rev, mod_rev FROM kv_format_1;
    UPDATE meta SET (current_rev, compacted_rev, purged_rev) =
      (SELECT current_rev, compacted_rev, compacted_rev FROM meta_format_1 WHERE id = 1) WHERE id = 1;
    DROP TABLE kv_format_1;
    DROP TABLE history_format_1;
    DROP TABLE meta_format_1;
  `);
}
