/**
 * Serves many watches from one storage subscription: events fan out by key prefix into bounded
 * per-watch queues; a new watch replays history from its start revision before going live. In-process
 * followers (informers, control loops) hang on the same subscription and prefix index, called at commit. A store of
 * several revision sequences (--etcd-servers-overrides) is followed with the dispatched revision kept per sequence,
 * so a watch's bookmarks carry revisions of the sequence its collection is on.
 * When the storage lost events before it could hand them over, every watch ends and every follower is told
 * (to relist), as kube's Cacher.terminateAllWatchers does before its reflector relists. When a revision sequence
 * failed for good (a failed WAL sync), its watches end the same way and new ones on it are refused with 503, as a
 * stopped cacher answers.
 */
import { newServiceUnavailable } from "../api/errors.ts";
import {
  type LostHistory,
  sequenceOf,
  sequencesUnder,
  type Storage,
  StorageError,
  type StorageEvent,
  type StorageFailure,
  type Unsubscribe,
} from "../storage/storage.ts";
import { PrefixIndex } from "./prefix-index.ts";
import type { Watch } from "./watch.ts";
import { WatchStream } from "./watch-stream.ts";
import { logger } from "../log/mod.ts";

const log = logger("watch-broker");

export interface WatchBrokerOptions {
  /** Live messages a watch may have undelivered before it is ended with WatchOverflowError; default 10,000. */
  queueLimit?: number;
}

export class WatchBroker {
  readonly #storage: Storage;
  readonly #queueLimit: number;
  readonly #index = new PrefixIndex<WatchStream>();
  readonly #followers = new PrefixIndex<(event: StorageEvent) => void>();
  readonly #lostFollowers = new Set<(lost: LostHistory) => void>();
  readonly #unsubscribe: Unsubscribe;
  /** Per revision sequence: every event at or below this revision has been handed to the matching watches. */
  readonly #dispatchedRevisions = new Map<Storage, number>();
  /** The sequence each watch's collection is on. */
  readonly #sequenceOfWatch = new WeakMap<WatchStream, Storage>();
  /** Sequences that failed for good: they hand over nothing more. */
  readonly #failedSequences = new Set<Storage>();
  #closed = false;

  constructor(storage: Storage, options: WatchBrokerOptions = {}) {
    this.#storage = storage;
    this.#queueLimit = options.queueLimit ?? 10_000;
    for (const sequence of sequencesUnder(storage, "/")) this.#dispatchedRevisions.set(sequence, sequence.currentRevision());
    this.#unsubscribe = storage.subscribe(
      (event) => this.#dispatch(sequenceOf(storage, event.kv.key), event),
      (lost) => this.#lose(lost),
      (failure) => this.#fail(failure),
    );
  }

  /**
   * Events under `prefix` with revision > afterRevision, then live ones. Below the compacted
   * revision the first `next()` throws StorageError("Compacted").
   */
  watch(prefix: string, afterRevision: number): Watch {
    if (this.#closed) throw new StorageError("Closed", "watch broker is closed");
    const sequence = sequenceOf(this.#storage, prefix);
    // Cacher.Watch answers errors.NewServiceUnavailable with ready.wait's error once the cacher is Stopped; a
    // failed sequence never becomes ready again, so the watch is refused at once rather than left waiting.
    if (this.#failedSequences.has(sequence)) throw newServiceUnavailable("apiserver cacher is stopped");
    const stream = new WatchStream(afterRevision, {
      queueLimit: this.#queueLimit,
      onEnd: () => this.#index.remove(prefix, stream),
    });
    this.#sequenceOfWatch.set(stream, sequence);
    // Register before reading history so nothing committed in between is missed.
    this.#index.add(prefix, stream);
    this.#storage.eventsSince(prefix, afterRevision).then(
      (events) => stream.replayed(events),
      (error) => stream.fail(error),
    );
    return stream;
  }

  /**
   * Calls `listener` with every event under `prefix`, synchronously right after its commit (so an in-process reader
   * sees a write before its request is answered); a throwing listener is logged and does not break the commit.
   * `onLost` is told when events were lost to this process (the follower relists, as client-go's reflector does
   * after a 410).
   */
  follow(prefix: string, listener: (event: StorageEvent) => void, onLost?: (lost: LostHistory) => void): Unsubscribe {
    const guarded = (event: StorageEvent) => {
      try {
        listener(event);
      } catch (error) {
        log.error(`follower of ${prefix} failed`, error);
      }
    };
    this.#followers.add(prefix, guarded);
    // A wrapper of its own, so one callback given to two follows is told and removed once per follow.
    const toldOfLoss = onLost && ((lost: LostHistory) => onLost(lost));
    if (toldOfLoss) this.#lostFollowers.add(toldOfLoss);
    return () => {
      this.#followers.remove(prefix, guarded);
      if (toldOfLoss) this.#lostFollowers.delete(toldOfLoss);
    };
  }

  /** Queues a bookmark on `watch`, behind every event it has been handed so far. */
  requestProgress(watch: Watch): void {
    if (!(watch instanceof WatchStream)) return;
    const sequence = this.#sequenceOfWatch.get(watch);
    if (sequence) watch.progress(this.#dispatchedRevisions.get(sequence)!);
  }

  /** Ends every watch and stops listening to storage. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#unsubscribe();
    for (const stream of this.#index.all()) stream.close();
  }

  /**
   * Ends every watch: its stream just closes, as a cacheWatcher stopped by terminateAllWatchers closes its result
   * channel; the client re-watches from its last resourceVersion and gets 410 if that is inside the lost range.
   */
  #lose(lost: LostHistory): void {
    for (const stream of this.#index.all()) stream.close();
    for (const onLost of [...this.#lostFollowers]) {
      try {
        onLost(lost);
      } catch (error) {
        log.error("a follower failed to handle lost watch history", error);
      }
    }
    const sequence = lost.sequence ?? this.#storage;
    this.#dispatchedRevisions.set(sequence, Math.max(this.#dispatchedRevisions.get(sequence) ?? 0, lost.to));
  }

  /**
   * Ends every watch on the failed sequence, as kube's cacher ends its watches (terminateAllWatchers) when its
   * reflector's ListAndWatch fails: the HTTP stream just closes (WatchServer returns when the result channel closes),
   * and the client's re-watch is refused (above).
   */
  #fail(failure: StorageFailure): void {
    const sequence = failure.sequence ?? this.#storage;
    this.#failedSequences.add(sequence);
    for (const stream of this.#index.all()) {
      if (this.#sequenceOfWatch.get(stream) === sequence) stream.close();
    }
  }

  #dispatch(sequence: Storage, event: StorageEvent): void {
    for (const follower of this.#followers.matching(event.kv.key)) follower(event);
    for (const stream of this.#index.matching(event.kv.key)) stream.deliver(event);
    this.#dispatchedRevisions.set(sequence, event.revision);
  }
}
