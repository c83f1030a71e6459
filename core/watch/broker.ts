/**
 * Serves many watches from one storage subscription: events fan out by key prefix into bounded
 * per-watch queues; a new watch replays history from its start revision before going live. In-process
 * followers (informers, control loops) hang on the same subscription and prefix index, called at commit. A store of
 * several revision sequences (--etcd-servers-overrides) is followed with the dispatched revision kept per sequence,
 * so a watch's bookmarks carry revisions of the sequence its collection is on.
 * When the storage lost events before it could hand them over, every watch ends and every follower is told
 * (to relist), as kube's Cacher.terminateAllWatchers does before its reflector relists.
 */
import {
  type LostHistory,
  sequenceOf,
  sequencesUnder,
  type Storage,
  StorageError,
  type StorageEvent,
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
  #closed = false;

  constructor(storage: Storage, options: WatchBrokerOptions = {}) {
    this.#storage = storage;
    this.#queueLimit = options.queueLimit ?? 10_000;
    for (const sequence of sequencesUnder(storage, "/")) this.#dispatchedRevisions.set(sequence, sequence.currentRevision());
    this.#unsubscribe = storage.subscribe(
      (event) => this.#dispatch(sequenceOf(storage, event.kv.key), event),
      (lost) => this.#lose(lost),
    );
  }

  /**
   * Events under `prefix` with revision > afterRevision, then live ones. Below the compacted
   * revision the first `next()` throws StorageError("Compacted").
   */
  watch(prefix: string, afterRevision: number): Watch {
    if (this.#closed) throw new StorageError("Closed", "watch broker is closed");
    const stream = new WatchStream(afterRevision, {
      queueLimit: this.#queueLimit,
      onEnd: () => this.#index.remove(prefix, stream),
    });
    this.#sequenceOfWatch.set(stream, sequenceOf(this.#storage, prefix));
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

  #dispatch(sequence: Storage, event: StorageEvent): void {
    for (const follower of this.#followers.matching(event.kv.key)) follower(event);
    for (const stream of this.#index.matching(event.kv.key)) stream.deliver(event);
    this.#dispatchedRevisions.set(sequence, event.revision);
  }
}
