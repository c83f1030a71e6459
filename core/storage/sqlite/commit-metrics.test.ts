import { expect, test } from "bun:test";
import { Histogram, Registry } from "prom-client";
import { COMMIT_BATCH_METRIC, commitBatchRecorder } from "./commit-metrics.ts";
import { openSqliteStorage } from "./mod.ts";

test("each durable transaction records how many writes it carried: concurrent writes share one", async () => {
  const registry = new Registry();
  const storage = openSqliteStorage(":memory:", { onCommit: commitBatchRecorder(registry) });
  await Promise.all(Array.from({ length: 5 }, (_, i) => storage.write({ op: "create", key: `/a/${i}`, value: "v" })));
  await storage.write({ op: "create", key: "/a/last", value: "v" });
  const text = await registry.metrics();
  expect(text).toContain(`${COMMIT_BATCH_METRIC}_count 2`);
  expect(text).toContain(`${COMMIT_BATCH_METRIC}_sum 6`);
  expect(text).toContain(`${COMMIT_BATCH_METRIC}_bucket{le="1"} 1`);
  expect(text).toContain(`${COMMIT_BATCH_METRIC}_bucket{le="4"} 1`);
  expect(text).toContain(`${COMMIT_BATCH_METRIC}_bucket{le="8"} 2`);
  await storage.close();
});

test("the commit batch histogram prints as prom-client's unlabelled Histogram, zero buckets before the first commit included", async () => {
  const ours = new Registry();
  const record = commitBatchRecorder(ours);
  const theirs = new Registry();
  const histogram = new Histogram({
    name: COMMIT_BATCH_METRIC,
    help: "Write operations per durable storage transaction (group commit).",
    buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256],
    registers: [theirs],
  });
  expect(await ours.metrics()).toContain(`${COMMIT_BATCH_METRIC}_count 0`);
  expect(await ours.metrics()).toBe(await theirs.metrics());
  for (const writes of [1, 3, 3, 300]) {
    record(writes);
    histogram.observe(writes);
  }
  expect(await ours.metrics()).toBe(await theirs.metrics());
});
