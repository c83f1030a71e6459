/** The SQLite implementation of the storage contract, on any driver that fits SqliteDatabase. */
import type { SqliteDatabase } from "../../runtime/sqlite-driver.ts";
import {
  type KeyValue,
  type RangeOptions,
  type RangeResult,
  type Storage,
  StorageError,
  type StorageEvent,
  type Unsubscribe,
  type WriteOp,
} from "../storage.ts";
import { purgeHistoryThrough } from "./compaction.ts";
import { GroupCommitQueue } from "./group-commit.ts";
import { keyRange } from "./key-range.ts";
import { historyRowToEvent, rowToKeyValue } from "./rows.ts";
import { initializeSchema, type Revisions, type Synchronous } from "./schema.ts";
import { prepareStatements, type Statements } from "./statements.ts";
import { applyWriteBatch } from "./write-batch.ts";

export interface SqliteStorageOptions {
  /** FULL (default) syncs every commit; NORMAL may lose the last commits on power loss, not on a crash. */
  synchronous?: Synchronous;
  /** Told when a subscriber throws (the event stays committed and other subscribers still get it); default console.error. */
  onSubscriberError?: (error: unknown) => void;
}

export interface SqliteStorageStats {
  /** Write transactions committed (each may hold many writes). */
  transactions: number;
  /** Successful write ops committed. */
  writes: number;
}

export class SqliteStorage implements Storage {
  readonly #db: SqliteDatabase;
  readonly #statements: Statements;
  readonly #revisions: Revisions;
  readonly #listeners = new Set<(event: StorageEvent) => void>();
  readonly #writes: GroupCommitQueue<WriteOp, KeyValue>;
  readonly #stats: SqliteStorageStats = { transactions: 0, writes: 0 };
  readonly #onSubscriberError: (error: unknown) => void;
  #compaction: Promise<void> = Promise.resolve();
  #closed = false;

  constructor(db: SqliteDatabase, options: SqliteStorageOptions = {}) {
    this.#db = db;
    this.#revisions = initializeSchema(db, options.synchronous ?? "FULL");
    this.#statements = prepareStatements(db);
    this.#writes = new GroupCommitQueue((ops) => this.#commit(ops));
    this.#onSubscriberError = options.onSubscriberError ??
      ((error) => console.error("storage: a subscriber threw", error));
  }

  currentRevision(): number {
    return this.#revisions.current;
  }

  compactedRevision(): number {
    return this.#revisions.compacted;
  }

  stats(): SqliteStorageStats {
    return { ...this.#stats };
  }

  async get(key: string, revision?: number): Promise<KeyValue | null> {
    const at = this.#readRevision(revision);
    const row = at === this.#revisions.current
      ? this.#statements.getCurrent.get(key)
      : this.#statements.getAtRevision.get(key, at);
    return row ? rowToKeyValue(row) : null;
  }

  async range(prefix: string, options: RangeOptions = {}): Promise<RangeResult> {
    const revision = this.#readRevision(options.revision);
    const { lower, after, upper } = keyRange(prefix, options.startAfter);
    const limit = options.limit || -1;
    const atCurrent = revision === this.#revisions.current;
    const rows = atCurrent
      ? this.#statements.rangeCurrent.all(lower, after, upper, limit)
      : this.#statements.rangeAtRevision.all(lower, after, upper, revision, limit);
    const items = rows.map(rowToKeyValue);
    let remaining = 0;
    if (limit > 0 && items.length === limit) {
      const last = items[items.length - 1]!.key;
      const row = atCurrent
        ? this.#statements.countCurrent.get(lower, last, upper)
        : this.#statements.countAtRevision.get(lower, last, upper, revision);
      remaining = Number(row!.n);
    }
    return { items, revision, remaining };
  }

  async count(prefix: string): Promise<number> {
    this.#assertOpen();
    const { lower, after, upper } = keyRange(prefix);
    return Number(this.#statements.countCurrent.get(lower, after, upper)!.n);
  }

  write(op: WriteOp): Promise<KeyValue> {
    if (this.#closed) return Promise.reject(closedError());
    return this.#writes.submit(op);
  }

  async eventsSince(prefix: string, afterRevision: number): Promise<StorageEvent[]> {
    this.#assertOpen();
    if (afterRevision < this.#revisions.compacted) throw compactedError();
    const { lower, after, upper } = keyRange(prefix);
    return this.#statements.eventsSince.all(lower, after, upper, afterRevision).map(historyRowToEvent);
  }

  subscribe(listener: (event: StorageEvent) => void): Unsubscribe {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  compact(revision: number): Promise<void> {
    if (this.#closed) return Promise.reject(closedError());
    if (revision > this.#revisions.current) return Promise.reject(futureRevisionError());
    if (revision <= this.#revisions.compacted) return Promise.resolve();
    // Refuse reads below the new mark at once; the rows are purged in chunks after it, and a purge
    // that fails leaves them for the next compaction to remove.
    this.#revisions.compacted = revision;
    this.#db.transaction(() => this.#statements.saveCompactedRevision.run(revision));
    const purge = this.#compaction.then(() => purgeHistoryThrough(this.#db, this.#statements, revision));
    this.#compaction = purge.catch(() => undefined);
    return purge;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#writes.flush();
    this.#closed = true;
    await this.#compaction;
    this.#db.close();
  }

  #commit(ops: WriteOp[]) {
    const batch = this.#db.transaction(() =>
      applyWriteBatch(this.#statements, ops, this.#revisions.current, Date.now())
    );
    this.#revisions.current = batch.revision;
    this.#stats.transactions += 1;
    this.#stats.writes += batch.events.length;
    this.#publish(batch.events);
    return batch.outcomes;
  }

  #publish(events: StorageEvent[]): void {
    for (const event of events) {
      for (const listener of this.#listeners) {
        try {
          listener(event);
        } catch (error) {
          this.#onSubscriberError(error);
        }
      }
    }
  }

  #readRevision(revision: number | undefined): number {
    this.#assertOpen();
    const current = this.#revisions.current;
    if (!revision || revision === current) return current;
    if (revision > current) throw futureRevisionError();
    if (revision < this.#revisions.compacted) throw compactedError();
    return revision;
  }

  #assertOpen(): void {
    if (this.#closed) throw closedError();
  }
}

// Messages as etcd's mvcc package words them.
const compactedError = () => new StorageError("Compacted", "mvcc: required revision has been compacted");
const futureRevisionError = () => new StorageError("FutureRevision", "mvcc: required revision is a future revision");
const closedError = () => new StorageError("Closed", "storage is closed");
