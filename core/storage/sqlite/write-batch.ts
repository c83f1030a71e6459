/**
 * Applies a batch of write ops inside one (caller-owned) transaction. Each op is checked on its
 * own against the state left by the ops before it; a rejected op changes nothing and takes no
 * revision, so the batch's revisions stay contiguous.
 */
import { type KeyValue, StorageError, type StorageEvent, type WriteOp } from "../storage.ts";
import { EVENT_TYPE_CODES, rowToKeyValue } from "./rows.ts";
import type { Statements } from "./statements.ts";
import type { SqliteValue } from "../../runtime/sqlite-driver.ts";

export type WriteOutcome = { ok: true; value: KeyValue } | { ok: false; error: StorageError };

export interface BatchResult {
  outcomes: WriteOutcome[];
  /** Committed events in revision order (one per successful op). */
  events: StorageEvent[];
  /** The revision after the batch. */
  revision: number;
}

/**
 * Each successful op leaves its key's `kv` row as the op made it and appends one `history` row holding
 * `storedValues[i]`, op i's value as stored (stored-value.ts, encoded by the caller before the transaction; null for
 * a delete); the revision is history's newest row. The events carry the values as given, never read back. Each op is
 * checked against the batch's own earlier writes, else the stored row; the rows are written once the batch is
 * checked, the inserts a whole batch at a time (multi-row.ts).
 */
export function applyWriteBatch(
  statements: Statements,
  ops: WriteOp[],
  storedValues: readonly SqliteValue[],
  startRevision: number,
): BatchResult {
  let revision = startRevision;
  const events: StorageEvent[] = [];
  /** The keys this batch wrote, as it left them (null: deleted), and those of them stored before it. */
  const written = new Map<string, KeyValue | null>();
  const stored = new Set<string>();
  const history: SqliteValue[] = [];
  const outcomes = ops.map((op, index): WriteOutcome => {
    const current = currentRow(statements, op.key, written, stored);
    const rejection = checkOp(op, current);
    if (rejection) return { ok: false, error: rejection };
    revision += 1;
    const event = eventFor(op, current, revision);
    written.set(op.key, event.type === "DELETED" ? null : event.kv);
    const { kv, prev, type } = event;
    history.push(revision, kv.key, EVENT_TYPE_CODES[type], kv.createRevision, prev?.modRevision ?? null, storedValues[index] ?? null);
    events.push(event);
    return { ok: true, value: event.kv };
  });
  const saved: SqliteValue[] = [];
  for (const [key, kv] of written) {
    if (kv) saved.push(key, kv.createRevision, kv.modRevision);
    else if (stored.has(key)) statements.deleteKv.run(key);
  }
  statements.saveKv.run(saved);
  statements.appendHistory.run(history);
  return { outcomes, events, revision };
}

/** The key's live row as the batch found it: its own write, else the stored row (noted in `stored`). */
function currentRow(
  statements: Statements,
  key: string,
  written: Map<string, KeyValue | null>,
  stored: Set<string>,
): KeyValue | undefined {
  if (written.has(key)) return written.get(key) ?? undefined;
  const row = statements.getCurrent.get(key);
  if (!row) return undefined;
  stored.add(key);
  return rowToKeyValue(row);
}

function checkOp(op: WriteOp, current: KeyValue | undefined): StorageError | undefined {
  if (op.op === "create") {
    return current ? new StorageError("KeyExists", `key ${op.key} already exists`, current) : undefined;
  }
  if (!current) return new StorageError("NotFound", `key ${op.key} not found`);
  if (op.expectedRevision !== 0 && op.expectedRevision !== current.modRevision) {
    return new StorageError(
      "Conflict",
      `key ${op.key} is at revision ${current.modRevision}, not ${op.expectedRevision}`,
      current,
    );
  }
  return undefined;
}

function eventFor(op: WriteOp, prev: KeyValue | undefined, revision: number): StorageEvent {
  if (op.op === "create") {
    return { type: "ADDED", revision, kv: { key: op.key, value: op.value, createRevision: revision, modRevision: revision } };
  }
  const before = prev!;
  const value = op.op === "update" ? op.value : before.value;
  const kv = { key: op.key, value, createRevision: before.createRevision, modRevision: revision };
  return { type: op.op === "update" ? "MODIFIED" : "DELETED", revision, kv, prev: before };
}
