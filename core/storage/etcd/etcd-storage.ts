/**
 * The storage contract on etcd v3, with kube's etcd3 store semantics (apiserver pkg/storage/etcd3/store.go):
 * resourceVersion is etcd's mod_revision; Create is a txn `If(mod_revision(key) = 0) Then(Put)`, GuaranteedUpdate
 * and conditionalDelete a txn on the key's mod_revision (`Else(Get)` returns the current value for the Conflict);
 * lists are etcd ranges at one revision. One etcd watch over the whole --etcd-prefix feeds the subscribers, in
 * revision order, with other servers' writes too; a write resolves only once that watch has delivered its
 * revision, so a client that watches from the resourceVersion a write returned misses nothing and sees it once.
 * When etcd compacted revisions before that watch received them (an outage longer than the compaction window),
 * the subscribers are told of the lost range instead, as kube's cacher learns of it from its reflector's
 * ErrCompacted: they end their watches and relist.
 */
import { logger } from "../../log/mod.ts";
import {
  closedError,
  compactedError,
  isStorageError,
  type KeyValue,
  type LostHistory,
  type RangeOptions,
  type RangeResult,
  type Storage,
  StorageError,
  type StorageEvent,
  type Unsubscribe,
  type WriteOp,
} from "../storage.ts";
import type { EtcdClient } from "./_client.ts";
import { readHistory } from "./_history.ts";
import type { EtcdKeyValue, EtcdTxnResponse, EtcdWatchResponse } from "./_messages.ts";
import { prefixEnd, type StoredValues } from "./_stored-values.ts";
import { StoreWatch } from "./_store-watch.ts";

const log = logger("storage");

// etcd's Compare enums (rpc.proto).
const EQUAL = 0;
const GREATER = 1;
const MOD = 2;

export interface EtcdStorageOptions {
  /** Told when a subscriber throws (the event stays committed and other subscribers still get it); default the log. */
  onSubscriberError?: (error: unknown) => void;
  /** How long a history replay (eventsSince) may take; default 30 s. */
  historyTimeoutMs?: number;
}

export class EtcdStorage implements Storage {
  readonly #client: EtcdClient;
  readonly #values: StoredValues;
  readonly #listeners = new Set<(event: StorageEvent) => void>();
  readonly #lostListeners = new Set<(lost: LostHistory) => void>();
  readonly #onSubscriberError: (error: unknown) => void;
  readonly #historyTimeoutMs: number;
  readonly #watch: StoreWatch;
  /** The highest revision any etcd response reported. */
  #seenRevision: number;
  /** Every event at or below this revision has been handed to the subscribers. */
  #dispatchedRevision: number;
  #compactedRevision: number;
  /** Writes waiting for the watch to deliver their revision, oldest first. */
  #waiting: { revision: number; resolve: () => void; reject: (error: unknown) => void }[] = [];
  /** Watch responses are decoded (maybe by a KMS plugin) one after another, so they are delivered in order. */
  #delivery: Promise<void> = Promise.resolve();
  readonly #onClose: (() => void)[] = [];
  #closed = false;

  constructor(client: EtcdClient, values: StoredValues, start: { revision: number; compacted: number }, options: EtcdStorageOptions = {}) {
    this.#client = client;
    this.#values = values;
    this.#seenRevision = this.#dispatchedRevision = start.revision;
    this.#compactedRevision = start.compacted;
    this.#onSubscriberError = options.onSubscriberError ?? ((error) => log.error("a storage subscriber threw", error));
    this.#historyTimeoutMs = options.historyTimeoutMs ?? 30_000;
    this.#watch = new StoreWatch(client, values.storeRange(), start.revision, {
      onResponse: (
        response,
      ) => (this.#delivery = this.#delivery.then(() => this.#deliver(response)).catch((error) =>
        log.error("delivering a watch response failed", error)
      )),
      onLost: (from, to) => {
        // New watches and reads from inside the range answer 410 from now on; the subscribers hear of it in order.
        this.noteCompacted(to + 1);
        this.#delivery = this.#delivery.then(() => this.#lose({ from, to })).catch((error) =>
          log.error("reporting lost watch history failed", error)
        );
      },
      onBroken: (error) => log.warning(`the etcd watch broke and is reopened: ${(error as Error).message}`),
    });
  }

  currentRevision(): number {
    return Math.max(this.#seenRevision, this.#dispatchedRevision);
  }

  compactedRevision(): number {
    return this.#compactedRevision;
  }

  /** Another server compacted (kube's compactor saw it in compact_rev_key) or etcd said so. */
  noteCompacted(revision: number): void {
    this.#compactedRevision = Math.max(this.#compactedRevision, revision);
  }

  async get(key: string, revision?: number): Promise<KeyValue | null> {
    this.#assertOpen();
    const response = await this.#call(() => this.#client.range({ key: this.#values.backendKey(key), revision: revision || 0 }), revision);
    const kv = response.kvs[0];
    return kv ? await this.#values.keyValue(key, kv) : null;
  }

  async range(prefix: string, options: RangeOptions = {}): Promise<RangeResult> {
    this.#assertOpen();
    const rangeEnd = prefixEnd(this.#values.backendKey(prefix));
    let key = options.startAfter === undefined ? this.#values.backendKey(prefix) : after(this.#values.backendKey(options.startAfter));
    let revision = options.revision || 0;
    const limit = options.limit || 0;
    const items: KeyValue[] = [];
    // Keys kubun does not serve are skipped, so a page may need another range to fill.
    for (;;) {
      const response = await this.#call(
        () => this.#client.range({ key, rangeEnd, revision, limit: limit && limit - items.length }),
        revision,
      );
      revision ||= response.header.revision;
      for (const kv of response.kvs) {
        const kubunKey = this.#values.kubunKey(kv.key);
        if (kubunKey !== undefined) items.push(await this.#values.keyValue(kubunKey, kv));
      }
      const full = limit > 0 && items.length >= limit;
      if (!response.more || full) {
        const remaining = response.more && !options.skipRemaining ? response.count - response.kvs.length : 0;
        return { items, revision, remaining };
      }
      key = after(response.kvs.at(-1)!.key);
    }
  }

  async count(prefix: string): Promise<number> {
    this.#assertOpen();
    const key = this.#values.backendKey(prefix);
    const response = await this.#call(() => this.#client.range({ key, rangeEnd: prefixEnd(key), countOnly: true }));
    return response.count;
  }

  async write(op: WriteOp): Promise<KeyValue> {
    this.#assertOpen();
    const key = this.#values.backendKey(op.key);
    const value = op.op === "delete" ? undefined : await this.#values.encode(op.key, op.value);
    const condition = op.op === "create"
      ? { result: EQUAL, target: MOD, key, modRevision: 0 }
      : op.expectedRevision === 0
      ? { result: GREATER, target: MOD, key, modRevision: 0 }
      : { result: EQUAL, target: MOD, key, modRevision: op.expectedRevision };
    const success = op.op === "delete" ? { requestDeleteRange: { key, prevKv: true } } : { requestPut: { key, value, prevKv: true } };
    const response = await this.#call(() =>
      this.#client.txn({ compare: [condition], success: [success], failure: [{ requestRange: { key } }] })
    );
    if (!response.succeeded) throw await this.#rejection(op, response);
    const revision = response.header.revision;
    const written = await this.#written(op, revision, response);
    await this.#dispatched(revision);
    return written;
  }

  async eventsSince(prefix: string, afterRevision: number): Promise<StorageEvent[]> {
    this.#assertOpen();
    if (afterRevision < this.#compactedRevision) throw compactedError();
    const key = this.#values.backendKey(prefix);
    // Events after the dispatched revision reach a caller registered now through the subscription.
    const read = await readHistory(
      this.#client,
      { key, rangeEnd: prefixEnd(key) },
      afterRevision,
      this.#dispatchedRevision,
      this.#historyTimeoutMs,
    );
    if (read.compactRevision !== undefined) {
      this.noteCompacted(read.compactRevision);
      throw compactedError();
    }
    const events: StorageEvent[] = [];
    for (const event of read.events) {
      const mapped = await this.#values.event(event);
      if (mapped) events.push(mapped);
    }
    return events;
  }

  subscribe(listener: (event: StorageEvent) => void, onLost?: (lost: LostHistory) => void): Unsubscribe {
    this.#listeners.add(listener);
    if (onLost) this.#lostListeners.add(onLost);
    return () => {
      this.#listeners.delete(listener);
      if (onLost) this.#lostListeners.delete(onLost);
    };
  }

  async compact(revision: number): Promise<void> {
    this.#assertOpen();
    if (revision <= this.#compactedRevision) return;
    await this.#client.compact(revision).catch((error: unknown) => {
      if (!(error instanceof StorageError && error.code === "Compacted")) throw error;
    });
    this.noteCompacted(revision);
  }

  /** Runs `stop` when the storage closes (the compactor). */
  onClose(stop: () => void): void {
    this.#onClose.push(stop);
  }

  close(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    this.#closed = true;
    for (const stop of this.#onClose) stop();
    this.#watch.stop();
    for (const waiter of this.#waiting.splice(0)) waiter.reject(closedError());
    this.#client.close();
    return Promise.resolve();
  }

  /**
   * Runs an etcd call reading at `revision`, noting the revision its header reports; a read etcd finds compacted
   * tells that everything up to that revision is (another server compacted since this one last learned of it).
   */
  async #call<T extends { header?: { revision: number } }>(call: () => Promise<T>, revision = 0): Promise<T> {
    const response = await call().catch((error: unknown) => {
      if (revision > 0 && isStorageError(error, "Compacted")) this.noteCompacted(revision + 1);
      throw error;
    });
    if (response.header) this.#seenRevision = Math.max(this.#seenRevision, response.header.revision);
    return response;
  }

  async #rejection(op: WriteOp, response: EtcdTxnResponse): Promise<StorageError> {
    const kv = response.responses[0]?.responseRange?.kvs[0];
    const current = kv ? await this.#values.keyValue(op.key, kv) : undefined;
    if (op.op === "create") return new StorageError("KeyExists", `key ${op.key} already exists`, current);
    if (!current) return new StorageError("NotFound", `key ${op.key} not found`);
    return new StorageError("Conflict", `key ${op.key} is at revision ${current.modRevision}, not ${op.expectedRevision}`, current);
  }

  async #written(op: WriteOp, revision: number, response: EtcdTxnResponse): Promise<KeyValue> {
    const result = response.responses[0]!;
    if (op.op === "delete") {
      const prev = result.responseDeleteRange!.prevKvs[0]!;
      return { ...(await this.#values.keyValue(op.key, prev)), modRevision: revision };
    }
    const prev: EtcdKeyValue | undefined = result.responsePut?.prevKv ?? undefined;
    return {
      key: op.key,
      value: op.value,
      createRevision: op.op === "create" || !prev ? revision : prev.createRevision,
      modRevision: revision,
    };
  }

  /** Resolves once the watch has handed every event up to `revision` to the subscribers. */
  #dispatched(revision: number): Promise<void> {
    if (this.#dispatchedRevision >= revision) return Promise.resolve();
    return new Promise((resolve, reject) => {
      this.#waiting.push({ revision, resolve, reject });
      this.#waiting.sort((a, b) => a.revision - b.revision);
    });
  }

  async #deliver(response: EtcdWatchResponse): Promise<void> {
    const events: StorageEvent[] = [];
    for (const event of response.events) {
      try {
        const mapped = await this.#values.event(event);
        if (mapped) events.push(mapped);
      } catch (error) {
        log.error("a watch event could not be read", error);
      }
    }
    if (this.#closed) return;
    for (const event of events) {
      for (const listener of this.#listeners) {
        try {
          listener(event);
        } catch (error) {
          this.#onSubscriberError(error);
        }
      }
    }
    this.#advanceDispatched(response.events.at(-1)?.kv.modRevision ?? response.header.revision);
  }

  /**
   * The subscribers are told of the lost range; then a write inside it resolves (its event reached nobody, but every
   * watch that could have missed it has ended and a re-watch from before it answers 410).
   */
  #lose(lost: LostHistory): void {
    log.warning(
      `etcd compacted revisions ${lost.from}..${lost.to} before this server's watch received them; its watches are ended and its informers relist`,
    );
    if (this.#closed) return;
    for (const onLost of this.#lostListeners) {
      try {
        onLost(lost);
      } catch (error) {
        this.#onSubscriberError(error);
      }
    }
    this.#advanceDispatched(lost.to);
  }

  #advanceDispatched(revision: number): void {
    this.#dispatchedRevision = Math.max(this.#dispatchedRevision, revision);
    while (this.#waiting.length > 0 && this.#waiting[0]!.revision <= this.#dispatchedRevision) this.#waiting.shift()!.resolve();
  }

  #assertOpen(): void {
    if (this.#closed) throw closedError();
  }
}

/** The smallest key after `key`. */
function after(key: Uint8Array): Uint8Array {
  const next = new Uint8Array(key.length + 1);
  next.set(key);
  return next;
}
