/**
 * The SQLite implementation of the storage contract, on any driver that fits SqliteDatabase.
 *
 * Several processes may share one database file. Each write transaction takes the write lock
 * (BEGIN IMMEDIATE) and reads the current revision (history's newest row) inside it, so revisions stay
 * unique and contiguous across processes. Subscribers get every committed event exactly once in
 * revision order, other processes' included: a "dispatched revision" cursor is advanced by this
 * process's own commits and by reading other processes' commits from history, which happens when
 * `PRAGMA data_version` says another connection committed (polled every 50 ms while anyone
 * subscribes, after reads and before revision queries). If another process compacted history this
 * process had not dispatched yet (it stalled for longer than the compaction window), those events
 * are lost to this process's subscribers: they are told of the gap (they end their watches and relist) and
 * dispatching resumes after it.
 */
import type { SqliteDatabase } from "../../runtime/sqlite-driver.ts";
import {
  closedError,
  compactedError,
  futureRevisionError,
  type KeyValue,
  type LostHistory,
  type RangeOptions,
  type RangeResult,
  type Storage,
  type StorageEvent,
  type Unsubscribe,
  type WriteOp,
} from "../storage.ts";
import { compactThrough } from "./compaction.ts";
import { readCommittedEvents, readStoredRevisions } from "./committed-history.ts";
import { DataVersionPoller } from "./data-version-poller.ts";
import { GroupCommitQueue } from "./group-commit.ts";
import { keyRange } from "./key-range.ts";
import { historyRowToEvent, rowToKeyValue } from "./rows.ts";
import { initializeSchema, type Revisions, type Synchronous } from "./schema.ts";
import { prepareStatements, type Statements } from "./statements.ts";
import { applyWriteBatch } from "./write-batch.ts";
import { logger } from "../../log/mod.ts";

const log = logger("storage");

export interface SqliteStorageOptions {
  /** FULL (default) syncs every commit; NORMAL may lose the last commits on power loss, not on a crash. */
  synchronous?: Synchronous;
  /** Told when a subscriber throws (the event stays committed and other subscribers still get it); default the log. */
  onSubscriberError?: (error: unknown) => void;
  /** How often to look for other processes' commits while anyone subscribes; default 50 ms. */
  foreignCommitPollMs?: number;
  /** Told the number of write ops of each committed transaction (commit-metrics.ts). */
  onCommit?: (writes: number) => void;
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
  readonly #lostListeners = new Set<(lost: LostHistory) => void>();
  readonly #writes: GroupCommitQueue<WriteOp, KeyValue>;
  readonly #stats: SqliteStorageStats = { transactions: 0, writes: 0 };
  readonly #onSubscriberError: (error: unknown) => void;
  readonly #onCommit: (writes: number) => void;
  readonly #foreignCommits: DataVersionPoller;
  /** Every event at or below this revision has been handed to the subscribers. */
  #dispatchedRevision: number;
  #dispatching = false;
  #compaction: Promise<void> = Promise.resolve();
  #closed = false;

  constructor(db: SqliteDatabase, options: SqliteStorageOptions = {}) {
    this.#db = db;
    this.#revisions = initializeSchema(db, options.synchronous ?? "FULL");
    this.#statements = prepareStatements(db);
    this.#writes = new GroupCommitQueue((ops) => this.#commit(ops));
    this.#onSubscriberError = options.onSubscriberError ??
      ((error) => log.error("a storage subscriber threw", error));
    this.#onCommit = options.onCommit ?? (() => {});
    this.#dispatchedRevision = this.#revisions.current;
    this.#foreignCommits = new DataVersionPoller(this.#statements.dataVersion, () => this.#catchUp(), {
      intervalMs: options.foreignCommitPollMs ?? 50,
    });
  }

  currentRevision(): number {
    this.#syncIfChanged();
    return this.#revisions.current;
  }

  compactedRevision(): number {
    this.#syncIfChanged();
    return this.#revisions.compacted;
  }

  stats(): SqliteStorageStats {
    return { ...this.#stats };
  }

  async get(key: string, revision?: number): Promise<KeyValue | null> {
    return this.#readConsistently(() => {
      const at = this.#readRevision(revision);
      const row = at === this.#revisions.current ? this.#statements.getCurrent.get(key) : this.#statements.getAtRevision.get(key, at);
      return row ? rowToKeyValue(row) : null;
    });
  }

  async range(prefix: string, options: RangeOptions = {}): Promise<RangeResult> {
    return this.#readConsistently(() => this.#rangeNow(prefix, options));
  }

  #rangeNow(prefix: string, options: RangeOptions): RangeResult {
    const revision = this.#readRevision(options.revision);
    const { lower, after, upper } = keyRange(prefix, options.startAfter);
    const limit = options.limit || -1;
    const atCurrent = revision === this.#revisions.current;
    const rows = atCurrent
      ? this.#statements.rangeCurrent.all(lower, after, upper, limit)
      : this.#statements.rangeAtRevision.all(lower, after, upper, revision, limit);
    const items = rows.map(rowToKeyValue);
    let remaining = 0;
    if (limit > 0 && items.length === limit && !options.skipRemaining) {
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
    return this.#readConsistently(() => Number(this.#statements.countCurrent.get(lower, after, upper)!.n));
  }

  write(op: WriteOp): Promise<KeyValue> {
    if (this.#closed) return Promise.reject(closedError());
    return this.#writes.submit(op);
  }

  async eventsSince(prefix: string, afterRevision: number): Promise<StorageEvent[]> {
    this.#assertOpen();
    const { lower, after, upper } = keyRange(prefix);
    return this.#readConsistently(() => {
      if (afterRevision < this.#revisions.compacted) throw compactedError();
      return this.#statements.eventsSince.all(lower, after, upper, afterRevision).map(historyRowToEvent);
    });
  }

  subscribe(listener: (event: StorageEvent) => void, onLost?: (lost: LostHistory) => void): Unsubscribe {
    this.#listeners.add(listener);
    if (onLost) this.#lostListeners.add(onLost);
    if (!this.#closed) this.#foreignCommits.start();
    return () => {
      this.#listeners.delete(listener);
      if (onLost) this.#lostListeners.delete(onLost);
      if (this.#listeners.size === 0) this.#foreignCommits.stop();
    };
  }

  compact(revision: number): Promise<void> {
    if (this.#closed) return Promise.reject(closedError());
    this.#syncIfChanged();
    if (revision > this.#revisions.current) return Promise.reject(futureRevisionError());
    if (revision <= this.#revisions.compacted) return Promise.resolve();
    // Refuse reads below the new mark at once; the mark is saved with the first chunk of the purge, and a purge
    // that fails leaves the rows for the next compaction to remove.
    this.#revisions.compacted = revision;
    const purge = this.#compaction.then(() => compactThrough(this.#db, this.#statements, revision));
    this.#compaction = purge.catch(() => undefined);
    return purge;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#writes.flush();
    this.#closed = true;
    this.#foreignCommits.stop();
    await this.#compaction;
    this.#db.close();
  }

  #commit(ops: WriteOp[]) {
    const { batch, foreign, compacted } = this.#db.transaction(() => {
      // Holding the write lock, the stored revision is the latest any process committed.
      const stored = readStoredRevisions(this.#statements);
      const foreign = this.#readForeignEvents(stored.current);
      const batch = applyWriteBatch(this.#statements, ops, stored.current);
      return { batch, foreign, compacted: stored.compacted };
    });
    this.#revisions.current = batch.revision;
    this.#revisions.compacted = Math.max(this.#revisions.compacted, compacted);
    this.#stats.transactions += 1;
    this.#stats.writes += batch.events.length;
    this.#onCommit(ops.length);
    this.#publish(foreign);
    this.#publish(batch.events);
    this.#dispatchedRevision = batch.revision;
    return batch.outcomes;
  }

  /** Other processes' events after the dispatched revision, through `through` (which they all are below), and any gap. */
  #readForeignEvents(through: number): (StorageEvent | LostHistory)[] {
    const events: (StorageEvent | LostHistory)[] = [];
    let after = this.#dispatchedRevision;
    while (after < through) {
      const chunk = readCommittedEvents(this.#statements, after, through, (from, to) => events.push({ from, to }));
      if (chunk.length === 0) break;
      events.push(...chunk);
      after = chunk[chunk.length - 1]!.revision;
    }
    return events;
  }

  #syncIfChanged(): void {
    if (!this.#closed && this.#foreignCommits.changed()) this.#catchUp();
  }

  /** Refreshes the revision counters and dispatches other processes' commits not yet dispatched. */
  #catchUp(): void {
    if (this.#closed) return;
    const stored = readStoredRevisions(this.#statements);
    this.#revisions.current = Math.max(this.#revisions.current, stored.current);
    this.#revisions.compacted = Math.max(this.#revisions.compacted, stored.compacted);
    // A subscriber that reads storage while being told of an event must not start a nested
    // dispatch; the loop below picks up whatever that read found.
    if (this.#dispatching) return;
    this.#dispatching = true;
    try {
      while (this.#dispatchedRevision < this.#revisions.current) {
        const through = this.#revisions.current;
        // Earlier events are published already, so a gap is reported in order as it is found.
        const events = readCommittedEvents(
          this.#statements,
          this.#dispatchedRevision,
          through,
          (from, to) => this.#publish([{ from, to }]),
        );
        this.#publish(events);
        this.#dispatchedRevision = events.length > 0 ? events[events.length - 1]!.revision : through;
      }
    } finally {
      this.#dispatching = false;
    }
  }

  /**
   * Runs a read, then asks `PRAGMA data_version` once: unchanged means no other process committed
   * before the read finished, so the read and this process's revision marks agree. Changed means
   * the read may have seen rows newer than the marks (or was refused against stale marks, such as a
   * revision another process made); the marks are caught up and the read repeated. One check per
   * read, after it, still makes every read see any commit that finished before it began.
   */
  #readConsistently<T>(read: () => T): T {
    for (;;) {
      let result: T;
      try {
        result = read();
      } catch (error) {
        if (this.#closed || !this.#foreignCommits.changed()) throw error;
        this.#catchUp();
        continue;
      }
      if (this.#closed || !this.#foreignCommits.changed()) return result;
      this.#catchUp();
    }
  }

  #publish(events: readonly (StorageEvent | LostHistory)[]): void {
    for (const event of events) {
      if (!("kv" in event)) {
        this.#publishLost(event);
        continue;
      }
      for (const listener of this.#listeners) {
        try {
          listener(event);
        } catch (error) {
          this.#onSubscriberError(error);
        }
      }
    }
  }

  #publishLost(lost: LostHistory): void {
    log.warning(
      `revisions ${lost.from}..${lost.to} were compacted by another process before this one dispatched them; its watches are ended and its informers relist`,
    );
    for (const onLost of this.#lostListeners) {
      try {
        onLost(lost);
      } catch (error) {
        this.#onSubscriberError(error);
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
