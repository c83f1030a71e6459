/**
 * One watcher's stream. It starts in replay mode: live events are held while the history replay
 * is fetched, then the replay is yielded first and the held events after it, skipping revisions
 * already seen, so the stream has no gaps and no duplicates. Only live messages count against the
 * queue limit (the replay is already in memory).
 */
import type { StorageEvent } from "../storage/storage.ts";
import { type Watch, type WatchMessage, WatchOverflowError } from "./watch.ts";

interface Waiter {
  resolve: (result: IteratorResult<WatchMessage>) => void;
  reject: (error: unknown) => void;
}

export class WatchStream implements Watch {
  readonly #queueLimit: number;
  readonly #onEnd: () => void;
  #replay: StorageEvent[] = [];
  #replayIndex = 0;
  /** Live messages held until the replay arrives; null once it has. */
  #held: WatchMessage[] | null = [];
  #queue: WatchMessage[] = [];
  #queueHead = 0;
  #lastRevision: number;
  #waiter?: Waiter;
  #failure?: unknown;
  #ended = false;

  constructor(afterRevision: number, options: { queueLimit: number; onEnd: () => void }) {
    this.#lastRevision = afterRevision;
    this.#queueLimit = options.queueLimit;
    this.#onEnd = options.onEnd;
  }

  /** Ends replay mode with the history since the start revision. */
  replayed(events: StorageEvent[]): void {
    if (this.#ended || !this.#held) return;
    this.#replay = events.filter((event) => event.revision > this.#lastRevision);
    if (this.#replay.length > 0) this.#lastRevision = this.#replay[this.#replay.length - 1]!.revision;
    const held = this.#held;
    this.#held = null;
    for (const message of held) this.#accept(message);
    this.#wake();
  }

  deliver(event: StorageEvent): void {
    this.#accept({ kind: "event", event });
  }

  /** Queues a bookmark at `revision` (or at the last yielded event, when that is newer). */
  progress(revision: number): void {
    this.#accept({ kind: "progress", revision });
  }

  fail(error: unknown): void {
    if (this.#ended) return;
    this.#failure = error;
    this.#end();
  }

  close(): void {
    if (!this.#ended) this.#end();
  }

  next(): Promise<IteratorResult<WatchMessage>> {
    const message = this.#take();
    if (message) return Promise.resolve({ done: false, value: message });
    if (this.#failure !== undefined) {
      const failure = this.#failure;
      this.#failure = undefined;
      return Promise.reject(failure);
    }
    if (this.#ended) return Promise.resolve({ done: true, value: undefined });
    if (this.#waiter) return Promise.reject(new Error("watch: next() called before the previous one settled"));
    return new Promise((resolve, reject) => (this.#waiter = { resolve, reject }));
  }

  [Symbol.asyncIterator](): AsyncIterator<WatchMessage> {
    return {
      next: () => this.next(),
      return: () => {
        this.close();
        return Promise.resolve({ done: true, value: undefined });
      },
    };
  }

  #accept(message: WatchMessage): void {
    if (this.#ended) return;
    if (this.#held) {
      this.#held.push(message);
      if (this.#held.length > this.#queueLimit) this.fail(new WatchOverflowError(this.#queueLimit));
      return;
    }
    if (message.kind === "event") {
      if (message.event.revision <= this.#lastRevision) return;
      this.#lastRevision = message.event.revision;
      this.#queue.push(message);
    } else {
      this.#pushProgress(Math.max(message.revision, this.#lastRevision));
    }
    if (this.#queue.length - this.#queueHead > this.#queueLimit) this.fail(new WatchOverflowError(this.#queueLimit));
    else this.#wake();
  }

  /** Back-to-back bookmarks collapse into the newest one. */
  #pushProgress(revision: number): void {
    const last = this.#queue[this.#queue.length - 1];
    if (this.#queue.length > this.#queueHead && last?.kind === "progress") last.revision = revision;
    else this.#queue.push({ kind: "progress", revision });
  }

  #take(): WatchMessage | undefined {
    if (this.#held) return undefined;
    if (this.#replayIndex < this.#replay.length) return { kind: "event", event: this.#replay[this.#replayIndex++]! };
    if (this.#queueHead === this.#queue.length) return undefined;
    const message = this.#queue[this.#queueHead++]!;
    // Drop the consumed front now and then instead of shifting on every take.
    if (this.#queueHead > 1024 && this.#queueHead * 2 > this.#queue.length) {
      this.#queue = this.#queue.slice(this.#queueHead);
      this.#queueHead = 0;
    }
    return message;
  }

  #wake(): void {
    const waiter = this.#waiter;
    if (!waiter) return;
    const message = this.#take();
    if (message) {
      this.#waiter = undefined;
      waiter.resolve({ done: false, value: message });
    } else if (this.#ended) {
      this.#waiter = undefined;
      this.next().then(waiter.resolve, waiter.reject);
    }
  }

  /** Failures drop undelivered messages: the client re-watches from its last revision anyway. */
  #end(): void {
    this.#ended = true;
    this.#held = null;
    this.#replay = [];
    this.#queue = [];
    this.#queueHead = 0;
    this.#onEnd();
    this.#wake();
  }
}
