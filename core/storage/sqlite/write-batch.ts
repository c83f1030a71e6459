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
 * Each successful op writes one `kv` row and appends one `history` row holding `storedValues[i]`, op i's value as
 * stored (stored-value.ts, encoded by the caller before the transaction; null for a delete); the revision is
 * history's newest row. The events carry the values as given, never read back.
 */
export function applyWriteBatch(
  statements: Statements,
  ops: WriteOp[],
  storedValues: readonly SqliteValue[],
  startRevision: number,
): BatchResult {
  let revision = startRevision;
  const events: StorageEvent[] = [];
  const outcomes = ops.map((op, index): WriteOutcome => {
    const row = statements.getCurrent.get(op.key);
    const current = row ? rowToKeyValue(row) : undefined;
    const rejection = checkOp(op, current);
    if (rejection) return { ok: false, error: rejection };
    revision += 1;
    const event = eventFor(op, current, revision);
    persist(statements, event, storedValues[index] ?? null);
    events.push(event);
    return { ok: true, value: event.kv };
  });
  return { outcomes, events, revision };
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

function persist(statements: Statements, event: StorageEvent, storedValue: SqliteValue): void {
  const { kv, prev, type, revision } = event;
  if (type === "ADDED") statements.insertKv.run(kv.key, revision, revision);
  else if (type === "MODIFIED") statements.updateKv.run(revision, kv.key);
  else statements.deleteKv.run(kv.key);
  statements.insertHistory.run(revision, kv.key, EVENT_TYPE_CODES[type], kv.createRevision, prev?.modRevision ?? null, storedValue);
}
