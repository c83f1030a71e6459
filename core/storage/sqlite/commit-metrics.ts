/**
 * kubun's own metric of group commit (kube has none: etcd batches in raft): how many writes each durable SQLite
 * transaction carried. A histogram near 1 under many concurrent writers means commits are not being shared.
 */
import type { Registry } from "prom-client";
import { HistogramSeries } from "../../metrics/series.ts";

const BATCH_BUCKETS = [1, 2, 4, 8, 16, 32, 64, 128, 256];

export const COMMIT_BATCH_METRIC = "kubun_storage_commit_batch_size";

/** Registers the histogram and answers the recorder SqliteStorageOptions.onCommit takes. */
export function commitBatchRecorder(registry: Registry): (writes: number) => void {
  const help = "Write operations per durable storage transaction (group commit).";
  // Made at once: an unlabelled prom-client histogram prints its zero buckets before the first observation.
  const histogram = new HistogramSeries(registry, COMMIT_BATCH_METRIC, help, [], BATCH_BUCKETS).cell();
  return (writes) => histogram.observe(writes);
}
