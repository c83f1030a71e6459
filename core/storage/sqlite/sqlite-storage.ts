/**
 * The SQLite implementation of the storage contract, on any driver that fits SqliteDatabase.
 *
 * Several processes may share one database file (unless opened `exclusive`). Each write transaction takes the write lock
 * (BEGIN IMMEDIATE) and reads the current revision (history's newest row) inside it, so revisions stay
 * unique and contiguous across processes. Subscribers get every committed event exactly once in
 * revision order, other processes' included: a "dispatched revision" cursor is advanced by this
 * process's own commits and by reading other processes' commits from history, which happens when
 * `PRAGMA data_version` says another connection committed (polled every 50 ms while anyone
 * subscribes, after reads and before revision queries). If another process compacted history this
 * process had not dispatched yet (it stalled for longer than the compaction window), those events
 * are lost to this process's subscribers: they are told of the gap (they end their watches and relist) and
 * dispatching resumes after it.
 *
 * Durability (default FULL): nothing in this process learns of a commit before it is durable. A commit's
 * acknowledgements and events, and the answer of any read made after it, wait for a sync of the WAL begun after it
 * (durability-gate.ts, wal-sync.ts), made off the JavaScript thread while the next batch commits. So no client,
 * watcher or in-process follower ever holds a revision a power loss could take back and hand out again.
 * `currentRevision()` is the revision released so far; reads see the newest committed rows and answer once those are
 * durable.
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
  type StorageFailure,
  type Unsubscribe,
  type WriteOp,
} from "../storage.ts";
import { compactThrough } from "./compaction.ts";
import { readCommittedEvents, readStoredRevisions } from "./committed-history.ts";
import { DataVersionPoller, type ForeignCommits, NO_FOREIGN_COMMITS } from "./data-version-poller.ts";
import { GroupCommitQueue } from "./group-commit.ts";
import { keyRange } from "./key-range.ts";
import { historyRowToEvent, rowToKeyValue } from "./rows.ts";
import { FORMAT_VERSION, initializeSchema, type Revisions, type Synchronous } from "./schema.ts";
import { prepareStatements, type Statements } from "./statements.ts";
import { applyWriteBatch, type WriteOutcome } from "./write-batch.ts";
import { type StoredValueEncoder, storedValueEncoder } from "./stored-value.ts";
import { DurabilityGate, type LogSync } from "./durability-gate.ts";
import { walPathOf, WalSync } from "./wal-sync.ts";
import { Subscribers } from "./subscribers.ts";
import { CurrentRows } from "./current-rows.ts";
import { logger } from "../../log/mod.ts";

const log = logger("storage");

export interface SqliteStorageOptions {
  /**
   * FULL (default): every write is durable before it is acknowledged or seen. NORMAL may lose the last commits on
   * power loss (not on a crash), and a resourceVersion handed out may then be handed out again.
   */
  synchronous?: Synchronous;
  /** Told when a subscriber throws (the event stays committed and other subscribers still get it); default the log. */
  onSubscriberError?: (error: unknown) => void;
  /**
   * The connection is the database file's only one (SQLite's exclusive locking mode, schema.ts): no `-shm` file, no
   * polling for other processes' commits, and another process opening the file fails with SQLITE_BUSY. Default
   * false: several processes (and a test's inspecting connection) may share the file.
   */
  exclusive?: boolean;
  /** How often to look for other processes' commits while anyone subscribes (shared mode); default 50 ms. */
  foreignCommitPollMs?: number;
  /** How FULL syncs the WAL of a database file; default an fdatasync of its `-wal` file (wal-sync.ts). */
  logSync?: (walPath: string) => LogSync;
  /** Told the number of write ops of each committed transaction (commit-metrics.ts). */
  onCommit?: (writes: number) => void;
  /**
   * Keys whose values are stored deflated when that is smaller (stored-value.ts): the Leases, rewritten on a timer
   * forever and read rarely. Default none. Any store reads such values whatever it is given here; a store that left
   * a shared format-2 file at format 2 (schema.ts ensureFormat) stores every value as text.
   */
  compressedKeyPrefixes?: readonly string[];
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
  readonly #subscribers: Subscribers;
  readonly #writes: GroupCommitQueue<WriteOp, KeyValue>;
  readonly #stats: SqliteStorageStats = { transactions: 0, writes: 0 };
  readonly #onCommit: (writes: number) => void;
  readonly #encodeValue: StoredValueEncoder;
  readonly #foreignCommits: ForeignCommits;
  readonly #logSync: LogSync | undefined;
  readonly #durability: DurabilityGate | undefined;
  readonly #currentRows = new CurrentRows();
  /** Every event at or below this revision has been read for dispatch (from this process's commits or history). */
  #dispatchedRevision: number;
  /** Every event at or below this revision is durable and handed to the subscribers. */
  #releasedRevision: number;
  /** Other processes' commits through this revision are covered by a sync this process made after finding them. */
  #foreignSyncedRevision = 0;
  #dispatching = false;
  #compaction: Promise<void> = Promise.resolve();
  #closed = false;

  constructor(db: SqliteDatabase, options: SqliteStorageOptions = {}) {
    this.#db = db;
    const synchronous = options.synchronous ?? "FULL";
    const schema = initializeSchema(db, synchronous, options.exclusive);
    this.#revisions = schema.revisions;
    const walPath = walPathOf(db);
    const logSync = synchronous === "FULL" && walPath ? (options.logSync ?? ((path) => new WalSync(path)))(walPath) : undefined;
    // SQLite at NORMAL syncs the WAL only around checkpoints; FULL's sync at each commit is made off the thread.
    if (logSync) db.exec("PRAGMA synchronous = NORMAL");
    this.#logSync = logSync;
    this.#subscribers = new Subscribers(options.onSubscriberError ?? ((error) => log.error("a storage subscriber threw", error)));
    this.#durability = logSync && new DurabilityGate(logSync, (error) => {
      log.error("the write-ahead log could not be synced; writes and reads fail from now on", error);
      this.#subscribers.fail(error);
    });
    this.#statements = prepareStatements(db);
    this.#writes = new GroupCommitQueue((ops) => this.#commit(ops));
    this.#onCommit = options.onCommit ?? (() => {});
    this.#encodeValue = storedValueEncoder(schema.format === FORMAT_VERSION ? options.compressedKeyPrefixes ?? [] : []);
    this.#dispatchedRevision = this.#revisions.current;
    this.#releasedRevision = this.#revisions.current;
    this.#foreignCommits = options.exclusive ? NO_FOREIGN_COMMITS : new DataVersionPoller(
      this.#statements.dataVersion,
      () => this.#catchUpOnTimer(),
      { intervalMs: options.foreignCommitPollMs ?? 50 },
    );
  }

  currentRevision(): number {
    this.#syncIfChanged();
    return this.#releasedRevision;
  }

  compactedRevision(): number {
    this.#syncIfChanged();
    return this.#revisions.compacted;
  }

  /**
   * Gives the connection's page cache back (SQLite's sqlite3_db_release_memory). Called when the process is idle
   * again after a burst: a LIST or a burst of writes fills the cache (up to schema.ts's cache_size), which an idle
   * server would otherwise keep resident; the next read takes its pages from the operating system's cache again.
   */
  releaseMemory(): void {
    this.#currentRows.clear();
    if (!this.#closed) this.#db.exec("PRAGMA shrink_memory");
  }

  stats(): SqliteStorageStats {
    return { ...this.#stats };
  }

  /** At once when everything the read may have seen is durable already (bun:sqlite reads synchronously). */
  get(key: string, revision?: number): KeyValue | null | Promise<KeyValue | null> {
    try {
      return this.#readDurably(() => {
        const at = this.#readRevision(revision);
        if (at === this.#revisions.current) return this.#currentRow(key, at);
        const row = this.#statements.getAtRevision.get(key, at);
        return row ? rowToKeyValue(row) : null;
      }, revision);
    } catch (error) {
      // The Storage contract: a failed read rejects, it does not throw.
      return Promise.reject(error);
    }
  }

  #currentRow(key: string, current: number): KeyValue | null {
    const kept = this.#currentRows.get(key, current);
    if (kept) return kept;
    const row = this.#statements.getCurrent.get(key);
    if (!row) return null;
    const kv = rowToKeyValue(row);
    this.#currentRows.keep(kv, current);
    return kv;
  }

  async range(prefix: string, options: RangeOptions = {}): Promise<RangeResult> {
    return await this.#readDurably(() => this.#rangeNow(prefix, options), options.revision);
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
    const { lower, after, upper } = keyRange(prefix);
    return await this.#readDurably(() => {
      this.#assertOpen();
      return Number(this.#statements.countCurrent.get(lower, after, upper)!.n);
    });
  }

  write(op: WriteOp): Promise<KeyValue> {
    if (this.#closed) return Promise.reject(closedError());
    return this.#writes.submit(op);
  }

  async eventsSince(prefix: string, afterRevision: number): Promise<StorageEvent[]> {
    const { lower, after, upper } = keyRange(prefix);
    return await this.#readDurably(() => {
      this.#assertOpen();
      if (afterRevision < this.#revisions.compacted) throw compactedError();
      return this.#statements.eventsSince.all(lower, after, upper, afterRevision).map(historyRowToEvent);
    });
  }

  subscribe(
    listener: (event: StorageEvent) => void,
    onLost?: (lost: LostHistory) => void,
    onFailure?: (failure: StorageFailure) => void,
  ): Unsubscribe {
    const unsubscribe = this.#subscribers.add(listener, onLost, onFailure);
    if (!this.#closed) this.#foreignCommits.start();
    return () => {
      unsubscribe();
      if (this.#subscribers.size === 0) this.#foreignCommits.stop();
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
    // After a failed sync nothing more is committed, a purge chunk neither (durability-gate.ts).
    const purge = this.#compaction.then(() =>
      compactThrough(this.#db, this.#statements, revision, () => this.#durability?.assertHealthy())
    );
    this.#compaction = purge.catch(() => undefined);
    return purge;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#writes.flush();
    this.#closed = true;
    this.#foreignCommits.stop();
    await this.#durability?.drain();
    await this.#compaction;
    this.#db.close();
    this.#logSync?.close();
  }

  #commit(ops: WriteOp[]) {
    // After a failed sync nothing more is committed: it could never be acknowledged (durability-gate.ts).
    this.#durability?.assertHealthy();
    // Deflating a Lease takes ~50 µs: done before the transaction, so the write lock is not held meanwhile.
    const storedValues = ops.map((op) => op.op === "delete" ? null : this.#encodeValue(op.key, op.value));
    const { batch, foreign, compacted } = this.#db.transaction(() => {
      // Holding the write lock, the stored revision is the latest any process committed.
      const stored = readStoredRevisions(this.#statements);
      const foreign = this.#readForeignEvents(stored.current);
      const batch = applyWriteBatch(this.#statements, ops, storedValues, stored.current);
      return { batch, foreign, compacted: stored.compacted };
    });
    this.#revisions.current = batch.revision;
    this.#revisions.compacted = Math.max(this.#revisions.compacted, compacted);
    this.#stats.transactions += 1;
    this.#stats.writes += batch.events.length;
    this.#onCommit(ops.length);
    this.#dispatchedRevision = batch.revision;
    const release = () => {
      this.#subscribers.publish(foreign);
      this.#subscribers.publish(batch.events);
      this.#releasedRevision = batch.revision;
      return batch.outcomes;
    };
    // Outcomes wait too: a refusal (already exists, conflict) tells of the commits before it.
    const durability = this.#durability;
    return durability
      ? new Promise<WriteOutcome[]>((resolve, reject) => durability.committed(ops.length, () => resolve(release()), reject))
      : release();
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

  /**
   * The poller's catch-up. Its failure is the storage's, not the process's: reads and writes answer it themselves,
   * and a failed sync was reported once by the gate.
   */
  #catchUpOnTimer(): void {
    try {
      this.#catchUp();
    } catch (error) {
      if (this.#durability?.healthy !== false) log.error("reading other processes' commits failed", error);
    }
  }

  /** Refreshes the revision counters and dispatches other processes' commits not yet dispatched. */
  #catchUp(): void {
    if (this.#closed) return;
    const stored = readStoredRevisions(this.#statements);
    this.#revisions.current = Math.max(this.#revisions.current, stored.current);
    this.#revisions.compacted = Math.max(this.#revisions.compacted, stored.compacted);
    // Another process's commits may not be synced yet: a sync of the file, here and now, covers them and this
    // process's commits still held, which are released first so that events stay in revision order. Also when
    // nested (below): the read that found them returns them, and the loop below hands them out.
    if (this.#durability && this.#dispatchedRevision < this.#revisions.current && this.#foreignSyncedRevision < this.#revisions.current) {
      this.#durability.syncNow();
      this.#foreignSyncedRevision = this.#revisions.current;
    }
    // A subscriber that reads storage while being told of an event must not start a nested
    // dispatch; the loop below picks up whatever that read found.
    if (this.#dispatching) return;
    this.#dispatching = true;
    try {
      while (this.#dispatchedRevision < this.#revisions.current) {
        const through = this.#revisions.current;
        // A gap is reported before the events after it.
        const found: (StorageEvent | LostHistory)[] = [];
        const events = readCommittedEvents(this.#statements, this.#dispatchedRevision, through, (from, to) => found.push({ from, to }));
        found.push(...events);
        const dispatched = events.length > 0 ? events[events.length - 1]!.revision : through;
        this.#dispatchedRevision = dispatched;
        const handOut = () => {
          this.#subscribers.publish(found);
          this.#releasedRevision = Math.max(this.#releasedRevision, dispatched);
        };
        // Called from a subscriber while this process's commits are being released, they go after those.
        if (this.#durability) this.#durability.inOrder(handOut);
        else handOut();
      }
    } finally {
      this.#dispatching = false;
    }
  }

  /**
   * A consistent read (below), answered once every commit it may have seen is durable and released. A read at a
   * revision already released answers at once: it returns nothing newer. With nothing left to wait for, the result
   * itself, no promise.
   */
  #readDurably<T>(read: () => T, atRevision?: number): T | Promise<T> {
    const result = this.#readConsistently(read);
    const pending = !atRevision || atRevision > this.#releasedRevision ? this.#durability?.whenDurable() : undefined;
    return pending ? pending.then(() => result) : result;
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
