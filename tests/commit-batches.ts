/** The server's group-commit histogram (kubun_storage_commit_batch_size on /metrics), read from outside. */
import type { TestServer } from "./harness.ts";

const METRIC = "kubun_storage_commit_batch_size";

/** Cumulative transaction counts by upper bound ("+Inf" last), as /metrics shows them now. */
export async function commitBatchBuckets(server: TestServer): Promise<Map<string, number>> {
  const response = await server.request("GET", "/metrics");
  if (response.status !== 200) throw new Error(`metrics: HTTP ${response.status}: ${await response.text()}`);
  const buckets = new Map<string, number>();
  for (const match of (await response.text()).matchAll(new RegExp(`^${METRIC}_bucket\\{le="([^"]+)"\\} (\\d+)$`, "gm"))) {
    buckets.set(match[1]!, Number(match[2]));
  }
  if (buckets.size === 0) throw new Error(`/metrics has no ${METRIC}`);
  return buckets;
}
