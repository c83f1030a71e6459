/**
 * Several stores behind one, each key on exactly one of them (--etcd-servers-overrides: kube gives every overridden
 * resource its own etcd3 store, with its own client and revision sequence). Calls about a key or a collection go to
 * the store holding it, so every revision a caller sees comes from that store's sequence; the revision calls of the
 * Storage contract speak of the main store, and a caller comparing revisions asks sequenceOf(key) for its store.
 */
import type {
  KeyValue,
  LostHistory,
  RangeOptions,
  RangeResult,
  Storage,
  StorageEvent,
  StorageFailure,
  Unsubscribe,
  WriteOp,
} from "./storage.ts";

export interface StorageRoute {
  /** A key prefix (a collection's, ending in "/"); every key under it lives on `storage`. */
  prefix: string;
  storage: Storage;
}

export class RoutedStorage implements Storage {
  readonly #main: Storage;
  readonly #routes: readonly StorageRoute[];
  readonly #sequences: readonly Storage[];

  constructor(main: Storage, routes: readonly StorageRoute[]) {
    for (const route of routes) {
      const overlapping = routes.find((other) => other !== route && other.prefix.startsWith(route.prefix));
      if (overlapping) throw new Error(`storage routes ${route.prefix} and ${overlapping.prefix} overlap`);
    }
    this.#main = main;
    this.#routes = routes;
    this.#sequences = [main, ...new Set(routes.map((route) => route.storage).filter((storage) => storage !== main))];
  }

  /**
   * The store holding `key`, or every key under the prefix `key`. A prefix above a routed collection (`/`, `/core/`)
   * would mix revision sequences in one answer, so asking about one is a programming error (a rejected call).
   */
  sequenceOf(key: string): Storage {
    const route = this.#routes.find((candidate) => key.startsWith(candidate.prefix));
    if (route) return route.storage;
    const below = this.#routes.find((candidate) => candidate.prefix.startsWith(key));
    if (below) throw new Error(`the key prefix ${key} spans the stores of ${below.prefix} and the main one`);
    return this.#main;
  }

  sequencesUnder(prefix: string): readonly Storage[] {
    const route = this.#routes.find((candidate) => prefix.startsWith(candidate.prefix));
    if (route) return [route.storage];
    const below = new Set(this.#routes.filter((candidate) => candidate.prefix.startsWith(prefix)).map((candidate) => candidate.storage));
    return this.#sequences.filter((storage) => storage === this.#main || below.has(storage));
  }

  currentRevision(): number {
    return this.#main.currentRevision();
  }

  compactedRevision(): number {
    return this.#main.compactedRevision();
  }

  get(key: string, revision?: number): KeyValue | null | Promise<KeyValue | null> {
    try {
      return this.sequenceOf(key).get(key, revision);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  async range(prefix: string, options?: RangeOptions): Promise<RangeResult> {
    return await this.sequenceOf(prefix).range(prefix, options);
  }

  async count(prefix: string): Promise<number> {
    return await this.sequenceOf(prefix).count(prefix);
  }

  async write(op: WriteOp): Promise<KeyValue> {
    return await this.sequenceOf(op.key).write(op);
  }

  async eventsSince(prefix: string, afterRevision: number): Promise<StorageEvent[]> {
    return await this.sequenceOf(prefix).eventsSince(prefix, afterRevision);
  }

  /**
   * Every store's events: in revision order within each store, in no order across them. A store's etcd watch covers
   * its whole prefix, so keys another store serves (left from before an override, or one etcd named twice) are dropped.
   * Lost history and a failure name the store they happened to.
   */
  subscribe(
    listener: (event: StorageEvent) => void,
    onLost?: (lost: LostHistory) => void,
    onFailure?: (failure: StorageFailure) => void,
  ): Unsubscribe {
    const unsubscribes = this.#sequences.map((storage) =>
      storage.subscribe(
        (event) => {
          if (this.sequenceOf(event.kv.key) === storage) listener(event);
        },
        onLost && ((lost) => onLost({ ...lost, sequence: storage })),
        onFailure && ((failure) => onFailure({ ...failure, sequence: storage })),
      )
    );
    return () => {
      for (const unsubscribe of unsubscribes) unsubscribe();
    };
  }

  /** Compacts the main store; each etcd store compacts its own history on --etcd-compaction-interval. */
  compact(revision: number): Promise<void> {
    return this.#main.compact(revision);
  }

  async close(): Promise<void> {
    await Promise.all(this.#sequences.map((storage) => storage.close()));
  }
}
