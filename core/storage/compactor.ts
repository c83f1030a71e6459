/**
 * Periodic compaction that keeps at least `historyMs` of event history (kube's
 * --watch-cache-history window): each round samples (time, current revision) and compacts to the
 * newest sample that is at least `historyMs` old, so every event after that sample is kept.
 * Uses only the Storage contract, so it works for any backend.
 *
 * A round every `historyMs`, as kube's compactor (k8s.io/apiserver/pkg/storage/etcd3/compact.go `compactor`)
 * compacts every --etcd-compaction-interval (storagebackend.DefaultCompactInterval, 5 min) to the revision of the
 * round before: between one and two windows of history are kept. Each compaction is a durable commit, and an idle
 * server's renewals make six commits a minute, so compacting every minute added a sixth to its flash writes.
 */
import { type AgedRevisionLoop, everyAgedRevision } from "./aged-revisions.ts";
import type { Storage } from "./storage.ts";
import { logger } from "../log/mod.ts";

const log = logger("compactor");

export interface CompactorOptions {
  historyMs: number;
  /** How often to sample and compact; default historyMs (at least 1 s). */
  intervalMs?: number;
  now?: () => number;
  /** Told when a compaction fails (the next round retries); default the log. */
  onError?: (error: unknown) => void;
}

export type Compactor = AgedRevisionLoop;

/** The default round interval: the history window, at least a second. */
export function compactionIntervalMs(historyMs: number): number {
  return Math.max(1_000, historyMs);
}

export function startCompactor(storage: Storage, options: CompactorOptions): Compactor {
  const { historyMs, now, onError = (error) => log.error("compaction failed", error) } = options;
  return everyAgedRevision(storage, {
    ageMs: historyMs,
    intervalMs: options.intervalMs ?? compactionIntervalMs(historyMs),
    now,
    onError,
    act: async (revision) => {
      if (revision > storage.compactedRevision()) await storage.compact(revision);
    },
  });
}
