import { expect, test } from "bun:test";
import { Registry } from "prom-client";
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
