/** The server's group-commit histogram (kubun_storage_commit_batch_size on /metrics), read from outside. */
import type { TestServer } from "../tests/harness.ts";
import { expectStatus } from "./_load.ts";

const METRIC = "kubun_storage_commit_batch_size";

/** Cumulative transaction counts by upper bound ("+Inf" last), as /metrics shows them now. */
export async function commitBatchBuckets(server: TestServer): Promise<Map<string, number>> {
  const response = await server.request("GET", "/metrics");
  expectStatus(response, 200, "metrics");
  const buckets = new Map<string, number>();
  for (const match of (await response.text()).matchAll(new RegExp(`^${METRIC}_bucket\\{le="([^"]+)"\\} (\\d+)$`, "gm"))) {
    buckets.set(match[1]!, Number(match[2]));
  }
  if (buckets.size === 0) throw new Error(`/metrics has no ${METRIC}`);
  return buckets;
}

/** "1: n, 2: n, 3-4: n, …" of the transactions committed between two readings, and the mean batch. */
export function describeBatches(before: Map<string, number>, after: Map<string, number>, writes: number): string {
  const parts: string[] = [];
  let lower = 1;
  let below = 0;
  let transactions = 0;
  for (const [le, cumulative] of after) {
    const upTo = cumulative - (before.get(le) ?? 0);
    const count = upTo - below;
    below = upTo;
    transactions = upTo;
    const label = le === "+Inf" ? `>${lower - 1}` : lower === Number(le) ? le : `${lower}-${le}`;
    if (count > 0) parts.push(`${label}: ${count}`);
    if (le !== "+Inf") lower = Number(le) + 1;
  }
  return `${parts.join(", ")} (${transactions} transactions, ${(writes / transactions).toFixed(1)} writes each)`;
}
