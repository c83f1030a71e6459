/** The watch contract the HTTP layer consumes. */
import type { StorageEvent } from "../storage/storage.ts";

/** A committed event, or a bookmark: every matching event at or below `revision` was yielded before it. */
export type WatchMessage = { kind: "event"; event: StorageEvent } | { kind: "progress"; revision: number };

export interface Watch extends AsyncIterable<WatchMessage> {
  /** Ends the iteration (pending and later `next()` calls answer done) and unregisters the watch. */
  close(): void;
}

/** The watcher fell more than the queue limit behind and was ended; the client should re-watch. */
export class WatchOverflowError extends Error {
  constructor(limit: number) {
    super(`watch ended: more than ${limit} undelivered messages`);
    this.name = "WatchOverflowError";
  }
}
