import { expect, test } from "bun:test";
import { setTimeout as sleep } from "node:timers/promises";
import { compactionIntervalMs, startCompactor } from "./compactor.ts";
import { openSqliteStorage } from "./sqlite/mod.ts";

const HOUR = 3_600_000;

async function writeCount(storage: ReturnType<typeof openSqliteStorage>, count: number) {
  for (let i = 0; i < count; i++) {
    await storage.write({ op: "create", key: `/a/${storage.currentRevision() + 1}`, value: "v" });
  }
}

test("the compactor keeps at least the history window and compacts what is older", async () => {
  const storage = openSqliteStorage(":memory:");
  let clock = 0;
  // Rounds more often than the window, taken by hand: a sample counts as aged exactly a window after it.
  const compactor = startCompactor(storage, { historyMs: 300_000, intervalMs: 60_000, now: () => clock });
  await writeCount(storage, 3);
  await compactor.tick(); // t=0: sample revision 3
  await writeCount(storage, 4);
  clock = 200_000;
  await compactor.tick(); // t=200s: sample revision 7; nothing is 5 minutes old yet
  expect(storage.compactedRevision()).toBe(0);
  await writeCount(storage, 2);
  clock = 300_000;
  await compactor.tick(); // t=300s: the t=0 sample is old enough
  expect(storage.compactedRevision()).toBe(3);
  clock = 499_999;
  await compactor.tick();
  expect(storage.compactedRevision()).toBe(3);
  clock = 500_000;
  await compactor.tick();
  expect(storage.compactedRevision()).toBe(7);
  compactor.stop();
  await storage.close();
});

test("the compactor runs on its interval until stopped", async () => {
  const storage = openSqliteStorage(":memory:");
  let clock = 0;
  const compactor = startCompactor(storage, { historyMs: 1_000, intervalMs: 2, now: () => clock });
  await writeCount(storage, 2);
  await sleep(10);
  clock = 1_000;
  await sleep(20);
  expect(storage.compactedRevision()).toBe(2);
  compactor.stop();
  await writeCount(storage, 2);
  clock = 5_000;
  await sleep(20);
  expect(storage.compactedRevision()).toBe(2);
  await storage.close();
});

test("a failed compaction is reported and retried on the next round", async () => {
  const storage = openSqliteStorage(":memory:");
  const errors: unknown[] = [];
  let clock = 0;
  let failuresLeft = 1;
  const flaky = Object.assign(Object.create(storage), {
    currentRevision: () => storage.currentRevision(),
    compactedRevision: () => storage.compactedRevision(),
    compact: (revision: number) => (failuresLeft-- > 0 ? Promise.reject(new Error("busy")) : storage.compact(revision)),
  });
  const compactor = startCompactor(flaky, { historyMs: 10, intervalMs: HOUR, now: () => clock, onError: (e) => errors.push(e) });
  await writeCount(storage, 1);
  await compactor.tick();
  clock = 10;
  await compactor.tick();
  expect(errors).toHaveLength(1);
  expect(storage.compactedRevision()).toBe(0);
  await writeCount(storage, 1);
  clock = 20;
  await compactor.tick(); // the t=10 sample (revision 1) is now the newest old enough
  expect(storage.compactedRevision()).toBe(1);
  compactor.stop();
  await storage.close();
});

// kube's compactor (etcd3/compact.go) compacts once per --etcd-compaction-interval to the previous round's revision;
// a round per window keeps one to two windows and makes one durable commit per window, not five.
test("by default the compactor runs once per history window, as kube's compactor once per compaction interval", () => {
  expect(compactionIntervalMs(300_000)).toBe(300_000);
  expect(compactionIntervalMs(3_000)).toBe(3_000);
  expect(compactionIntervalMs(10)).toBe(1_000);
});

test("a round that fires a little early still compacts to the previous round's revision, as kube's compactor does whatever the clock says", async () => {
  const storage = openSqliteStorage(":memory:");
  let clock = 0;
  const compactor = startCompactor(storage, { historyMs: 300_000, now: () => clock });
  await writeCount(storage, 3);
  clock = 299_999;
  await compactor.tick(); // samples revision 3, a millisecond short of a window after the start
  await writeCount(storage, 2);
  clock = 599_998;
  await compactor.tick();
  expect(storage.compactedRevision()).toBe(3);
  compactor.stop();
  await storage.close();
});

test("the first compaction comes one window after the start: the start is sampled", async () => {
  const storage = openSqliteStorage(":memory:");
  await writeCount(storage, 2);
  let clock = 0;
  const compactor = startCompactor(storage, { historyMs: 300_000, now: () => clock });
  clock = 300_000;
  await compactor.tick();
  expect(storage.compactedRevision()).toBe(2);
  compactor.stop();
  await storage.close();
});

test("a window longer than setInterval's longest delay does not turn the rounds into a busy loop", async () => {
  let samples = 0;
  const storage = {
    currentRevision: () => ++samples,
    compactedRevision: () => 0,
    compact: () => Promise.resolve(),
  } as unknown as Parameters<typeof startCompactor>[0];
  const compactor = startCompactor(storage, { historyMs: 720 * HOUR });
  await sleep(50);
  compactor.stop();
  // The start's sample only: an overflowing delay fires every millisecond.
  expect(samples).toBe(1);
});
