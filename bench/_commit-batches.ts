/** Describes the server's group-commit histogram (kubun_storage_commit_batch_size), read by tests/commit-batches.ts. */
export { commitBatchBuckets } from "../tests/commit-batches.ts";

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
