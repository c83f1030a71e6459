/**
 * The storage contract, shaped like etcd v3's MVCC:
 * one revision that every write increments (one per sequence; see sequenceOf), compare-on-revision writes, reads at a past
 * revision inside the kept history, an ordered stream of committed events, and compaction.
 *
 * Keys are opaque strings compared bytewise; the registry lays them out as
 * `/<group>/<resource>/<namespace>/<name>` so a prefix selects a collection.
 * Values are the object's JSON text without `metadata.resourceVersion` (the registry derives it
 * from `modRevision`).
 */

export interface KeyValue {
  key: string;
  value: string;
  /** Revision of the write that created this key (stays the same across updates). */
  createRevision: number;
  /** Revision of the last write to this key. */
  modRevision: number;
}

export type EventType = "ADDED" | "MODIFIED" | "DELETED";

/** One committed change. `prev` is absent for ADDED; `kv` of a DELETED event is the last value, at the delete's revision. */
export interface StorageEvent {
  type: EventType;
  revision: number;
  kv: KeyValue;
  prev?: KeyValue;
}

export interface RangeOptions {
  /** Read as of this revision; 0 or absent = current. Below the compacted revision → StorageError("Compacted"). Above current → StorageError("FutureRevision"). */
  revision?: number;
  /** Exclusive lower bound inside the prefix (for pagination). */
  startAfter?: string;
  /** At most this many items; 0 or absent = all. */
  limit?: number;
  /** Leave `remaining` uncounted (0), for a reader that pages on until a short page: counting costs a scan of the rest. */
  skipRemaining?: boolean;
}

export interface RangeResult {
  items: KeyValue[];
  /** The revision the read was answered at. */
  revision: number;
  /** Keys in the prefix after the last returned item, at that revision (0 when none). */
  remaining: number;
}

export type WriteOp =
  | { op: "create"; key: string; value: string }
  /** Fails with "Conflict" unless the key's modRevision equals expectedRevision (0 = any). */
  | { op: "update"; key: string; value: string; expectedRevision: number }
  /** Fails with "Conflict" unless the key's modRevision equals expectedRevision (0 = any). */
  | { op: "delete"; key: string; expectedRevision: number };

export type StorageErrorCode = "KeyExists" | "NotFound" | "Conflict" | "Compacted" | "FutureRevision" | "Closed";

export class StorageError extends Error {
  readonly code: StorageErrorCode;
  /** For Conflict and KeyExists: the current value, so callers can retry without another read. */
  readonly current?: KeyValue;

  constructor(code: StorageErrorCode, message: string, current?: KeyValue) {
    super(message);
    this.name = "StorageError";
    this.code = code;
    this.current = current;
  }
}

export function isStorageError(e: unknown, code?: StorageErrorCode): e is StorageError {
  return e instanceof StorageError && (code === undefined || e.code === code);
}

// The revision errors worded as etcd's mvcc package words ErrCompacted and ErrFutureRev, whichever backend answers.
export const compactedError = (): StorageError => new StorageError("Compacted", "mvcc: required revision has been compacted");
export const futureRevisionError = (): StorageError => new StorageError("FutureRevision", "mvcc: required revision is a future revision");
export const closedError = (): StorageError => new StorageError("Closed", "storage is closed");

export type Unsubscribe = () => void;

/**
 * Revisions from..to whose events a subscription missed: etcd (or another process on a shared SQLite file)
 * compacted them before this process received them; replays from inside the range fail as Compacted.
 */
export interface LostHistory {
  from: number;
  to: number;
  /** The revision sequence the range is in, for a store of several (see sequenceOf); unset: the store's own. */
  sequence?: Storage;
}

/**
 * The store failed for good: it commits and hands over nothing more, and its reads answer `error` (SQLite: a WAL sync
 * failed, so no later sync can vouch for what it held; durability-gate.ts).
 */
export interface StorageFailure {
  error: unknown;
  /** The revision sequence that failed, for a store of several (see sequenceOf); unset: the store's own. */
  sequence?: Storage;
}

export interface Storage {
  /** Latest committed revision. */
  currentRevision(): number;
  /** Oldest revision that reads and event replays can still be answered at. */
  compactedRevision(): number;

  /** May answer at once, without a promise, when the backend reads synchronously; a failed read rejects. */
  get(key: string, revision?: number): KeyValue | null | Promise<KeyValue | null>;
  /** Items whose key starts with `prefix`, in key order. */
  range(prefix: string, options?: RangeOptions): Promise<RangeResult>;
  /** Number of keys under the prefix now. */
  count(prefix: string): Promise<number>;

  /**
   * One write. Resolves after it is durable, with the new key-value (for delete: the deleted one, at the
   * delete's revision). Writes that arrive together may share one transaction (group commit) but each
   * succeeds or fails on its own.
   */
  write(op: WriteOp): Promise<KeyValue>;

  /** Committed events with revision > afterRevision under prefix, oldest first. Below compacted → StorageError("Compacted"). */
  eventsSince(prefix: string, afterRevision: number): Promise<StorageEvent[]>;
  /**
   * Every committed event, in revision order, delivered synchronously after its commit. `onLost` is told, in that
   * order, of revisions whose events this store could not hand over (compacted before it received them). `onFailure`
   * is told once, after the events handed over before it, when the store fails for good (a subscriber arriving later
   * is told just after subscribing); a backend that cannot fail so (etcd: its client reconnects) never calls it.
   */
  subscribe(
    listener: (event: StorageEvent) => void,
    onLost?: (lost: LostHistory) => void,
    onFailure?: (failure: StorageFailure) => void,
  ): Unsubscribe;

  /** Drop history at or below `revision`. */
  compact(revision: number): Promise<void>;
  close(): Promise<void>;

  /**
   * A store made of several revision sequences (--etcd-servers-overrides) names the one holding `key` (or every key
   * under the prefix `key`); the revision calls above then speak of its main sequence only. A store of one sequence
   * leaves these out.
   */
  sequenceOf?(key: string): Storage;
  /** The sequences holding keys under `prefix`, the main one first: several for a prefix above routed collections. */
  sequencesUnder?(prefix: string): readonly Storage[];
}

/** The store whose revisions `key` (or a key prefix) is written at: what a resourceVersion about it is compared with. */
export function sequenceOf(storage: Storage, key: string): Storage {
  return storage.sequenceOf?.(key) ?? storage;
}

/**
 * The revision sequences holding keys under `prefix` ("/": all of them), each with its own current and compacted
 * revision and event stream. Each holds only its own keys, so a reader of a prefix spanning several reads each.
 */
export function sequencesUnder(storage: Storage, prefix: string): readonly Storage[] {
  return storage.sequencesUnder?.(prefix) ?? [storage];
}
