/**
 * Keys that expire a fixed time after their last write, as etcd removes a key when the lease granted at its
 * write runs out (kube's --event-ttl: the event registry's TTLFunc gives every Event write a fresh lease). Like
 * the compactor, each round samples (time, current revision); a key whose last write is at or below the newest
 * sample at least `ttlMs` old is deleted, so watchers see DELETED as they would on lease expiry. Samples live in
 * memory: after a restart, keys written before it expire `ttlMs` after the start. Uses only the Storage contract.
 */
import { isStorageError, type Storage } from "./storage.ts";

export interface TtlExpiryOptions {
  ttlMs: number;
  /** How often to sample and sweep; default ttlMs / 10, between 1s and 60s. */
  intervalMs?: number;
  now?: () => number;
  /** Told when a sweep fails (the next round retries); default console.error. */
  onError?: (error: unknown) => void;
}

export interface TtlExpiry {
  stop(): void;
  /** Runs one round now (also what the timer does). */
  tick(): Promise<void>;
}

const PAGE = 500;

export function startTtlExpiry(storage: Storage, prefixes: readonly string[], options: TtlExpiryOptions): TtlExpiry {
  const { ttlMs, now = Date.now, onError = (error) => console.error("ttl expiry:", error) } = options;
  const intervalMs = options.intervalMs ?? Math.min(60_000, Math.max(1_000, ttlMs / 10));
  const samples: { time: number; revision: number }[] = [];
  let running: Promise<void> | undefined;

  async function sweep(prefix: string, expiredAtOrBelow: number): Promise<void> {
    let startAfter: string | undefined;
    for (;;) {
      const page = await storage.range(prefix, { startAfter, limit: PAGE });
      for (const kv of page.items) {
        if (kv.modRevision > expiredAtOrBelow) continue;
        // A write since the read renewed the key (a fresh lease); a delete since then already removed it.
        await storage.write({ op: "delete", key: kv.key, expectedRevision: kv.modRevision }).catch((error: unknown) => {
          if (!isStorageError(error, "Conflict") && !isStorageError(error, "NotFound")) throw error;
        });
      }
      if (page.remaining === 0 || page.items.length === 0) return;
      startAfter = page.items.at(-1)!.key;
    }
  }

  async function round(): Promise<void> {
    const time = now();
    samples.push({ time, revision: storage.currentRevision() });
    let cutoff: number | undefined;
    while (samples.length > 0 && samples[0]!.time <= time - ttlMs) cutoff = samples.shift()!.revision;
    if (cutoff === undefined) return;
    for (const prefix of prefixes) await sweep(prefix, cutoff);
  }

  function tick(): Promise<void> {
    running ??= round().catch(onError).finally(() => (running = undefined));
    return running;
  }

  const timer = setInterval(tick, intervalMs);
  // Never keep the process alive just to expire keys.
  (timer as { unref?: () => void }).unref?.();
  return { stop: () => clearInterval(timer), tick };
}
