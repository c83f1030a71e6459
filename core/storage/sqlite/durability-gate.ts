/**
 * Holds back what a commit lets the world learn (its acknowledgement, its watch events, a read that saw it) until a
 * sync of the write-ahead log that began after the commit has finished. Syncs run one at a time off the JavaScript
 * thread: commits made while one runs share the next (pipelining), and releases run in the order commits were noted,
 * so acknowledgements and events stay in revision order. A commit of one write while no sync runs and nothing is
 * held is synced on this thread instead: nothing else is committing, and the hop to the thread pool would only add
 * its wake-ups (sequential durable writes in Bun: 30–55 µs more CPU and 70–100 µs more latency each). A failed
 * sync fails every held release and every later one: after a failed fsync the kernel may have dropped the unsynced
 * pages, so no later sync can vouch for them.
 */

interface Held {
  /** The commit count a finished sync must cover. */
  through: number;
  release: () => void;
  fail: (error: unknown) => void;
}

export interface LogSync {
  /** Makes every write made to the log before the call durable, off the JavaScript thread. */
  sync(): Promise<void>;
  /** The same, on this thread. */
  syncNow(): void;
  close(): void;
}

export class DurabilityGate {
  readonly #log: LogSync;
  readonly #onFailure: (error: unknown) => void;
  /** Commits noted so far. */
  #noted = 0;
  /** Commits covered by a finished sync. */
  #durable = 0;
  #syncing = false;
  /** The sync running on the thread pool, which close waits for before the log's descriptor goes. */
  #running: Promise<void> = Promise.resolve();
  #held: Held[] = [];
  #releasing = false;
  #failure: { error: unknown } | undefined;
  #drained: (() => void)[] = [];

  /** `onFailure` is told of the first failed sync. */
  constructor(log: LogSync, onFailure: (error: unknown) => void) {
    this.#log = log;
    this.#onFailure = onFailure;
  }

  /**
   * Notes a commit of `writes` writes just made; `release` runs once it is durable: before this returns when the
   * commit is synced on this thread (one write, no sync running, nothing held), else after a sync on the thread pool.
   */
  committed(writes: number, release: () => void, fail: (error: unknown) => void): void {
    this.#noted += 1;
    if (writes > 1 || this.#syncing || this.#releasing || this.#held.length > 0 || this.#failure) {
      return this.#hold({ through: this.#noted, release, fail });
    }
    try {
      this.syncNow();
    } catch (error) {
      return fail(error);
    }
    release();
  }

  /** False once a sync failed. */
  get healthy(): boolean {
    return !this.#failure;
  }

  /** Throws the error of a sync that failed. */
  assertHealthy(): void {
    if (this.#failure) throw this.#failure.error;
  }

  /** Settles once every commit noted so far is durable; undefined when they already are. */
  whenDurable(): Promise<void> | undefined {
    if (this.#failure) return Promise.reject(this.#failure.error);
    if (this.#durable === this.#noted) return undefined;
    return new Promise((release, fail) => this.#hold({ through: this.#noted, release, fail }));
  }

  /**
   * Syncs on this thread and releases everything held, before returning: for a caller about to hand out what it
   * just read of another process's commits, after this process's own. Throws when the sync fails.
   */
  syncNow(): void {
    this.assertHealthy();
    const covers = this.#noted;
    try {
      this.#log.syncNow();
    } catch (error) {
      this.#failed(error);
      throw error;
    }
    this.#released(covers);
  }

  /**
   * Runs `handOut` after everything released so far, after a syncNow: at once, or, when called from inside a
   * release, after the releases that loop still has to make. Never after a failed sync.
   */
  inOrder(handOut: () => void): void {
    if (this.#failure) return;
    if (this.#releasing) this.#held.push({ through: this.#durable, release: handOut, fail: () => {} });
    else handOut();
  }

  /** Settles once nothing is held (every release has run or failed) and no sync is running. */
  drain(): Promise<void> {
    const released = this.#held.length === 0 ? Promise.resolve() : new Promise<void>((resolve) => this.#drained.push(resolve));
    // A sync still running after everything was released (an on-thread sync released it) must end first.
    return released.then(() => this.#running);
  }

  #hold(held: Held): void {
    if (this.#failure) return held.fail(this.#failure.error);
    this.#held.push(held);
    if (!this.#syncing) this.#startSync();
  }

  #startSync(): void {
    this.#syncing = true;
    const covers = this.#noted;
    this.#running = this.#log.sync().then(
      () => {
        this.#syncing = false;
        this.#released(covers);
      },
      (error) => this.#failed(error),
    );
  }

  #released(covers: number): void {
    if (this.#failure) return;
    this.#durable = Math.max(this.#durable, covers);
    // A release that syncs again (a subscriber reading another process's commits) only moves the mark: the loop
    // below goes on in order, so nothing is handed out ahead of what was held before it.
    if (this.#releasing) return;
    // Anything noted while this sync ran needs the next one; it starts before the releases so it overlaps them.
    if (!this.#syncing && this.#held.some((held) => held.through > this.#durable)) this.#startSync();
    this.#releasing = true;
    try {
      while (!this.#failure && this.#held.length > 0 && this.#held[0]!.through <= this.#durable) this.#held.shift()!.release();
    } finally {
      this.#releasing = false;
    }
    this.#settleDrained();
  }

  #failed(error: unknown): void {
    this.#syncing = false;
    if (this.#failure) return;
    this.#failure = { error };
    this.#onFailure(error);
    const held = this.#held;
    this.#held = [];
    for (const each of held) each.fail(error);
    this.#settleDrained();
  }

  #settleDrained(): void {
    if (this.#held.length > 0) return;
    const drained = this.#drained;
    this.#drained = [];
    for (const resolve of drained) resolve();
  }
}
