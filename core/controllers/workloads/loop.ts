/**
 * A level-triggered control loop: one pass at a time over the current state, run again after any committed
 * change under the watched key prefixes and on a resync timer. Passes read the store directly (no stale
 * cache), so a pass never acts twice on the same state and a restart simply runs the next pass.
 */
import { isConflict } from "../../api/errors.ts";
import type { StorageEvent } from "../../storage/storage.ts";
import type { WatchBroker } from "../../watch/mod.ts";
import { logger } from "../../log/mod.ts";

const log = logger("controllers");

/** Changes close together are handled by one pass. */
const BATCH_MS = 15;
const FIRST_RETRY_MS = 250;
/** A pass that keeps failing (a refused write) is retried less and less often, up to this long apart. */
const MAX_RETRY_MS = 30_000;

export interface LoopOptions {
  /** Named in error logs. */
  name: string;
  /** Storage key prefixes whose changes start a pass; empty = only the timer. */
  prefixes: string[];
  resyncMs: number;
  /** Further filter on events under the prefixes. */
  relevant?: (event: StorageEvent) => boolean;
}

export interface ControlLoop {
  stop(): void;
  /** Resolves when no pass is running or scheduled (tests use it). */
  settled(): Promise<void>;
  /** Asks for a pass soon. */
  trigger(): void;
}

export function startLoop(changes: Pick<WatchBroker, "follow">, pass: () => Promise<void>, options: LoopOptions): ControlLoop {
  let running: Promise<void> | null = null;
  let again = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let timerDue = 0;
  let stopped = false;
  let retryMs = FIRST_RETRY_MS;

  const run = () => {
    timer = undefined;
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = pass()
      .then(() => {
        retryMs = FIRST_RETRY_MS;
      })
      .catch((error) => {
        if (!isConflict(error)) log.error(`${options.name} controller failed`, error);
        schedule(retryMs);
        retryMs = Math.min(retryMs * 2, MAX_RETRY_MS);
      })
      .finally(() => {
        running = null;
        if (again) {
          again = false;
          schedule(BATCH_MS);
        }
      });
  };
  // A change or the resync runs a pass soon even while a failed pass waits out its backoff (as kube's queues
  // handle a new event at once and rate-limit only the requeue of a failure).
  const schedule = (delay: number) => {
    if (stopped) return;
    if (timer !== undefined) {
      if (timerDue <= Date.now() + delay) return;
      clearTimeout(timer);
    }
    timerDue = Date.now() + delay;
    timer = setTimeout(run, delay);
  };
  // Lost watch history may have hidden any change: a pass runs at once.
  const unsubscribes = options.prefixes.map((prefix) =>
    changes.follow(prefix, (event) => {
      if (options.relevant && !options.relevant(event)) return;
      schedule(BATCH_MS);
    }, () => schedule(0))
  );
  const resync = setInterval(() => schedule(0), options.resyncMs);
  schedule(0);
  return {
    stop() {
      stopped = true;
      clearInterval(resync);
      if (timer !== undefined) clearTimeout(timer);
      for (const unsubscribe of unsubscribes) unsubscribe();
    },
    async settled() {
      while (running || timer !== undefined) {
        await (running ?? new Promise((resolve) => setTimeout(resolve, BATCH_MS)));
      }
    },
    trigger: () => schedule(0),
  };
}

/**
 * Runs `sync` for every object of a pass, each one whatever happened to the others (one object whose writes are
 * refused must not stall the rest, as kube's per-key work queues ensure); the first failure is rethrown at the
 * end, so the loop retries with backoff.
 */
export async function syncEach<T>(objects: readonly T[], sync: (object: T) => Promise<void>): Promise<void> {
  let failure: { error: unknown } | undefined;
  for (const object of objects) {
    try {
      await sync(object);
    } catch (error) {
      failure ??= { error };
    }
  }
  if (failure) throw failure.error;
}
