/**
 * The subscribers of a SQLite store (Storage.subscribe): who is told of each released event, of history lost to
 * another process's compaction, and of the store's failure. A subscriber that throws is reported and the others are
 * still told, so one broken follower cannot keep events from the rest.
 */
import type { LostHistory, StorageEvent, StorageFailure, Unsubscribe } from "../storage.ts";
import { logger } from "../../log/mod.ts";

const log = logger("storage");

export class Subscribers {
  readonly #events = new Set<(event: StorageEvent) => void>();
  readonly #lost = new Set<(lost: LostHistory) => void>();
  readonly #failure = new Set<(failure: StorageFailure) => void>();
  readonly #onSubscriberError: (error: unknown) => void;
  /** The store's failure, once told: a subscriber arriving later is told of it too. */
  #failed: StorageFailure | undefined;

  constructor(onSubscriberError: (error: unknown) => void) {
    this.#onSubscriberError = onSubscriberError;
  }

  /** Anyone still subscribed to events. */
  get size(): number {
    return this.#events.size;
  }

  /** After the store failed, a new `onFailure` is told of it once `add` has returned. */
  add(
    listener: (event: StorageEvent) => void,
    onLost: ((lost: LostHistory) => void) | undefined,
    onFailure: ((failure: StorageFailure) => void) | undefined,
  ): Unsubscribe {
    this.#events.add(listener);
    if (onLost) this.#lost.add(onLost);
    if (onFailure) {
      this.#failure.add(onFailure);
      const failed = this.#failed;
      if (failed) queueMicrotask(() => this.#failure.has(onFailure) && this.#tell(onFailure, { error: failed.error }));
    }
    return () => {
      this.#events.delete(listener);
      if (onLost) this.#lost.delete(onLost);
      if (onFailure) this.#failure.delete(onFailure);
    };
  }

  /** Events and lost ranges, in revision order. */
  publish(events: readonly (StorageEvent | LostHistory)[]): void {
    for (const event of events) {
      if ("kv" in event) {
        for (const listener of this.#events) this.#tell(listener, event);
        continue;
      }
      log.warning(
        `revisions ${event.from}..${event.to} were compacted by another process before this one dispatched them; its watches are ended and its informers relist`,
      );
      for (const onLost of this.#lost) this.#tell(onLost, event);
    }
  }

  fail(error: unknown): void {
    this.#failed = { error };
    for (const onFailure of [...this.#failure]) this.#tell(onFailure, { error });
  }

  #tell<T>(listener: (value: T) => void, value: T): void {
    try {
      listener(value);
    } catch (error) {
      this.#onSubscriberError(error);
    }
  }
}
