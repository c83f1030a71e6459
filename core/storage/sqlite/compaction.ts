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

/**
 * Records `revision` as compacted and deletes the history rows it makes unreadable. The mark goes into the first
 * chunk's transaction, so a compaction while idle is one durable commit (each costs at least a 4 KiB page written
 * and the wal-index pages it dirties), and no process can see rows gone before it sees the mark saying so.
 */
export async function compactThrough(db: SqliteDatabase, statements: Statements, revision: number): Promise<void> {
  let purged = Number(statements.purgedRevision.get()!.purged_rev);
  let markSaved = false;
  while (!markSaved || purged < revision) {
    // Another process may have purged further already: then there is nothing left to delete.
    const after = purged;
    const through = Math.max(purged, Math.min(revision, purged + REVISIONS_PER_CHUNK));
    db.transaction(() => {
      if (!markSaved) statements.saveCompactedRevision.run(revision);
      if (through > after) {
        statements.deleteSuperseded.run(after, through);
        statements.savePurgedRevision.run(through);
      }
    });
    markSaved = true;
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
