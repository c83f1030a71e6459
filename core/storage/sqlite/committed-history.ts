/**
 * Reads the events other processes committed, from the history table, so they can be dispatched
 * to this process's subscribers in revision order.
 */
import type { StorageEvent } from "../storage.ts";
import type { Revisions } from "./schema.ts";
import { historyRowToEvent } from "./rows.ts";
import type { Statements } from "./statements.ts";

const ROWS_PER_READ = 1000;

/** The revision counters as stored now (by whichever process wrote last). */
export function readStoredRevisions(statements: Statements): Revisions {
  const row = statements.storedRevisions.get()!;
  return { current: Number(row.current_rev), compacted: Number(row.compacted_rev) };
}

/**
 * Events with afterRevision < revision <= throughRevision, oldest first, at most ROWS_PER_READ
 * (call again from the last one for more). `onLost(from, to)` is told when revisions that should
 * be there were already compacted away by another process.
 */
export function readCommittedEvents(
  statements: Statements,
  afterRevision: number,
  throughRevision: number,
  onLost: (from: number, to: number) => void,
): StorageEvent[] {
  const events = statements.historyBetween.all(afterRevision, throughRevision, ROWS_PER_READ).map(historyRowToEvent);
  // Every revision has exactly one history row, so a missing first row means compaction removed it.
  const firstFound = events[0]?.revision ?? throughRevision + 1;
  if (firstFound > afterRevision + 1) onLost(afterRevision + 1, firstFound - 1);
  return events;
}
