/**
 * Deletes compacted history in bounded chunks, yielding to the event loop between them so a large
 * backlog never stalls requests, then returns freed pages to the OS and truncates the WAL.
 */
import { setImmediate } from "node:timers";
import type { SqliteDatabase } from "../../runtime/sqlite-driver.ts";
import type { Statements } from "./statements.ts";

const REVISIONS_PER_CHUNK = 5000;

export async function purgeHistoryThrough(db: SqliteDatabase, statements: Statements, revision: number): Promise<void> {
  for (;;) {
    const oldest = statements.oldestHistoryRevision.get()?.rev;
    if (oldest === null || oldest === undefined || Number(oldest) > revision) break;
    const through = Math.min(revision, Number(oldest) + REVISIONS_PER_CHUNK - 1);
    db.transaction(() => statements.deleteHistoryThrough.run(through));
    if (through === revision) break;
    await new Promise((resolve) => setImmediate(resolve));
  }
  db.exec("PRAGMA incremental_vacuum");
  db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
}
