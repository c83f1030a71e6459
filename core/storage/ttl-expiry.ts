/**
 * Keys that expire a fixed time after their last write, as etcd removes a key when the lease granted at its
 * write runs out (kube's --event-ttl: the event registry's TTLFunc gives every Event write a fresh lease). Like
 * the compactor, each round samples (time, current revision); a key whose last write is at or below the newest
 * sample at least `ttlMs` old is deleted, so watchers see DELETED as they would on lease expiry. Samples live in
 * memory: after a restart, keys written before it expire `ttlMs` after the start. Uses only the Storage contract;
 * prefixes on different revision sequences (--etcd-servers-overrides) are sampled and swept each on their own.
 */
import { logger } from "../log/mod.ts";
import { type AgedRevisionLoop, everyAgedRevision } from "./aged-revisions.ts";
import { isStorageError, sequenceOf, type Storage } from "./storage.ts";

const log = logger("ttl-expiry");

export interface TtlExpiryOptions {
  ttlMs: number;
  /** How often to sample and sweep; default ttlMs / 10, between 1s and 60s. */
  intervalMs?: number;
  now?: () => number;
  /** Told when a sweep fails (the next round retries); default the log. */
  onError?: (error: unknown) => void;
}

export type TtlExpiry = AgedRevisionLoop;

const PAGE = 500;

export function startTtlExpiry(storage: Storage, prefixes: readonly string[], options: TtlExpiryOptions): TtlExpiry {
  const { ttlMs, now, onError = (error) => log.error("expiring keys failed", error) } = options;

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

  const prefixesBySequence = Map.groupBy(prefixes, (prefix) => sequenceOf(storage, prefix));
  const loops = [...prefixesBySequence].map(([sequence, sequencePrefixes]) =>
    everyAgedRevision(sequence, {
      ageMs: ttlMs,
      intervalMs: options.intervalMs ?? Math.min(60_000, Math.max(1_000, ttlMs / 10)),
      now,
      onError,
      act: async (expiredAtOrBelow) => {
        for (const prefix of sequencePrefixes) await sweep(prefix, expiredAtOrBelow);
      },
    })
  );
  return {
    stop: () => loops.forEach((loop) => loop.stop()),
    tick: async () => {
      await Promise.all(loops.map((loop) => loop.tick()));
    },
  };
}
