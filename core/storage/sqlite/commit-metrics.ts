/**
 * kubun's own metric of group commit (kube has none: etcd batches in raft): how many writes each durable SQLite
 * transaction carried. A histogram near 1 under many concurrent writers means commits are not being shared.
 */
import { Histogram, type Registry } from "prom-client";

const BATCH_BUCKETS = [1, 2, 4, 8, 16, 32, 64, 128, 256];

export const COMMIT_BATCH_METRIC = "kubun_storage_commit_batch_size";

/** Registers the histogram and answers the recorder SqliteStorageOptions.onCommit takes. */
export function commitBatchRecorder(registry: Registry): (writes: number) => void {
  const histogram = new Histogram({
    name: COMMIT_BATCH_METRIC,
    help: "Write operations per durable storage transaction (group commit).",
    buckets: BATCH_BUCKETS,
    registers: [registry],
  });
  return (writes) => histogram.observe(writes);
}
