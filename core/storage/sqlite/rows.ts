/** Conversions between SQLite rows and the storage contract's values. */
import type { EventType, KeyValue, StorageEvent } from "../storage.ts";
import type { SqliteRow } from "../../runtime/sqlite-driver.ts";
import { decodeStoredValue } from "./stored-value.ts";

/** How `history.type` stores an event type. */
export const EVENT_TYPE_CODES: Record<EventType, number> = { ADDED: 0, MODIFIED: 1, DELETED: 2 };
const EVENT_TYPES: EventType[] = ["ADDED", "MODIFIED", "DELETED"];

/** A row with columns key, value, create_rev, mod_rev. */
export function rowToKeyValue(row: SqliteRow): KeyValue {
  const key = String(row.key);
  return {
    key,
    value: decodeStoredValue(key, row.value),
    createRevision: Number(row.create_rev),
    modRevision: Number(row.mod_rev),
  };
}

/**
 * A `history` row joined with its predecessor's value as `prev_value` (statements.ts EVENT_COLUMNS). DELETE rows
 * keep no value of their own: the event carries the last one.
 */
export function historyRowToEvent(row: SqliteRow): StorageEvent {
  const type = EVENT_TYPES[Number(row.type)]!;
  const revision = Number(row.rev);
  const key = String(row.key);
  if (type === "ADDED") {
    return { type, revision, kv: { key, value: decodeStoredValue(key, row.value), createRevision: revision, modRevision: revision } };
  }
  const createRevision = Number(row.create_rev);
  const prev: KeyValue = { key, value: decodeStoredValue(key, row.prev_value), createRevision, modRevision: Number(row.prev_rev) };
  const value = type === "DELETED" ? prev.value : decodeStoredValue(key, row.value);
  return { type, revision, kv: { key, value, createRevision, modRevision: revision }, prev };
}
