/**
 * Deletes the history rows compaction makes unreadable, in bounded chunks, yielding to the event loop between them
 * so a large backlog never stalls requests. Free pages go back to the OS (VACUUM, WAL truncated) only
 * when a good share of the file is free: in steady state compaction frees about as many pages as new history needs
 * before the next round, and returning them would only move pages around and grow the file again: writes for
 * nothing.
 */
import { setImmediate } from "node:timers";
import type { SqliteDatabase } from "../../runtime/sqlite-driver.ts";
import type { Statements } from "./statements.ts";

const REVISIONS_PER_CHUNK = 5000;
/** Give pages back when at least this share of the file, and at least MIN_FREE_PAGES, is free. */
const FREE_SHARE_TO_VACUUM = 0.25;
const MIN_FREE_PAGES = 1024;

export async function purgeHistoryThrough(db: SqliteDatabase, statements: Statements, revision: number): Promise<void> {
  let purged = Number(statements.purgedRevision.get()!.purged_rev);
  while (purged < revision) {
    const through = Math.min(revision, purged + REVISIONS_PER_CHUNK);
    const after = purged;
    db.transaction(() => {
      statements.deleteSuperseded.run(after, through);
      statements.savePurgedRevision.run(through);
    });
    purged = through;
    if (purged < revision) await new Promise((resolve) => setImmediate(resolve));
  }
  const pages = statements.freePages.get()!;
  const free = Number(pages.free);
  if (free >= MIN_FREE_PAGES && free >= Number(pages.total) * FREE_SHARE_TO_VACUUM) {
    // The database keeps no pointer map (schema.ts dropPointerMap), so VACUUM rewrites it without the free pages.
    db.exec("VACUUM");
    db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  }
}
