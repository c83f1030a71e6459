/**
 * Deletes the history rows compaction makes unreadable, in bounded chunks, yielding to the event loop between them
 * so a large backlog never stalls requests. The pages it frees stay in the file for new history, as etcd keeps its
 * freed pages until a defragmentation: in steady state compaction frees about as many pages as new history needs
 * before the next round. A file opened with a large share free is rewritten without it then (schema.ts), never
 * while serving: VACUUM rewrites the whole file on the JavaScript thread (~1 s per 100 MB on the development machine).
 */
import { setImmediate } from "node:timers";
import type { SqliteDatabase } from "../../runtime/sqlite-driver.ts";
import type { Statements } from "./statements.ts";

const REVISIONS_PER_CHUNK = 5000;

/**
 * Records `revision` as compacted and deletes the history rows it makes unreadable. The mark goes into the first
 * chunk's transaction, so a compaction while idle is one durable commit (each costs at least a 4 KiB page written
 * and the wal-index pages it dirties), and no process can see rows gone before it sees the mark saying so.
 * `assertWritable` runs before each chunk and throws when nothing may be committed any more (a failed WAL sync).
 */
export async function compactThrough(
  db: SqliteDatabase,
  statements: Statements,
  revision: number,
  assertWritable: () => void,
): Promise<void> {
  let purged = Number(statements.purgedRevision.get()!.purged_rev);
  let markSaved = false;
  while (!markSaved || purged < revision) {
    // Another process may have purged further already: then there is nothing left to delete.
    const after = purged;
    const through = Math.max(purged, Math.min(revision, purged + REVISIONS_PER_CHUNK));
    assertWritable();
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
}
