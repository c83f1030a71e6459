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
 * be there were already compacted by another process; reading resumes after them. Every revision
 * above the compacted one has exactly one history row; at or below it, compaction keeps only each
 * key's newest row, which is no event to dispatch again.
 */
export function readCommittedEvents(
  statements: Statements,
  afterRevision: number,
  throughRevision: number,
  onLost: (from: number, to: number) => void,
): StorageEvent[] {
  const compacted = Math.min(readStoredRevisions(statements).compacted, throughRevision);
  if (afterRevision < compacted) onLost(afterRevision + 1, compacted);
  const after = Math.max(afterRevision, compacted);
  return statements.historyBetween.all(after, throughRevision, ROWS_PER_READ).map(historyRowToEvent);
}
