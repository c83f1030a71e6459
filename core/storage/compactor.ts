/**
 * Periodic compaction that keeps at least `historyMs` of event history (kube's
 * --watch-cache-history window): each round samples (time, current revision) and compacts to the
 * newest sample that is at least `historyMs` old, so every event after that sample is kept.
 * Uses only the Storage contract, so it works for any backend.
 */
import { type AgedRevisionLoop, everyAgedRevision } from "./aged-revisions.ts";
import type { Storage } from "./storage.ts";
import { logger } from "../log/mod.ts";

const log = logger("compactor");

export interface CompactorOptions {
  historyMs: number;
  /** How often to sample and compact; default historyMs / 5, between 1s and 60s. */
  intervalMs?: number;
  now?: () => number;
  /** Told when a compaction fails (the next round retries); default the log. */
  onError?: (error: unknown) => void;
}

export type Compactor = AgedRevisionLoop;

export function startCompactor(storage: Storage, options: CompactorOptions): Compactor {
  const { historyMs, now, onError = (error) => log.error("compaction failed", error) } = options;
  return everyAgedRevision(storage, {
    ageMs: historyMs,
    intervalMs: options.intervalMs ?? Math.min(60_000, Math.max(1_000, historyMs / 5)),
    now,
    onError,
    act: async (revision) => {
      if (revision > storage.compactedRevision()) await storage.compact(revision);
    },
  });
}
