/**
 * Periodic compaction that keeps at least `historyMs` of event history (kube's
 * --watch-cache-history window), less a second of timer slack: each round samples (time, current revision) and
 * compacts to the newest sample that old, so every event after that sample is kept.
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
  /** How often to sample and compact; default historyMs (at least 1 s, at most setInterval's longest delay). */
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

/**
 * How much earlier than `historyMs` a sample may be taken as aged. With a round every window, the previous round's
 * sample is a window old give or take the timer's jitter (a round may fire a millisecond early); without this slack
 * such a round would skip its compaction and keep a third window, where kube compacts to the previous round's
 * revision whatever the clock says.
 */
const ROUND_SLACK_MS = 1_000;

export function startCompactor(storage: Storage, options: CompactorOptions): Compactor {
  const { historyMs, now, onError = (error) => log.error("compaction failed", error) } = options;
  const intervalMs = options.intervalMs ?? compactionIntervalMs(historyMs);
  // Only rounds a window or more apart can lose a whole round to jitter; shorter ones catch up at their next round.
  const slackMs = intervalMs >= historyMs ? Math.min(ROUND_SLACK_MS, historyMs / 10) : 0;
  return everyAgedRevision(storage, {
    ageMs: historyMs - slackMs,
    intervalMs,
    now,
    onError,
    act: async (revision) => {
      if (revision > storage.compactedRevision()) await storage.compact(revision);
    },
  });
}
