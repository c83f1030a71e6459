import { expect, test } from "bun:test";
import { GroupCommitQueue, type Outcome } from "./group-commit.ts";

function recordingQueue() {
  const batches: number[][] = [];
  const queue = new GroupCommitQueue<number, number>((ops) => {
    batches.push(ops);
    return ops.map((op): Outcome<number> => (op < 0 ? { ok: false, error: new Error(`negative ${op}`) } : { ok: true, value: op * 10 }));
  });
  return { queue, batches };
}

test("submit() groups ops from the same tick into one commit", async () => {
  const { queue, batches } = recordingQueue();
  const results = await Promise.all([1, 2, 3].map((n) => queue.submit(n)));
  expect(results).toEqual([10, 20, 30]);
  expect(batches).toEqual([[1, 2, 3]]);
});

test("submit() commits ops from later ticks in a later batch", async () => {
  const { queue, batches } = recordingQueue();
  await queue.submit(1);
  await queue.submit(2);
  expect(batches).toEqual([[1], [2]]);
});

test("a rejected op fails alone while the rest of its batch succeeds", async () => {
  const { queue } = recordingQueue();
  const settled = await Promise.allSettled([queue.submit(1), queue.submit(-1), queue.submit(2)]);
  expect(settled.map((s) => s.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
});

test("a commit that throws rejects every op of the batch", async () => {
  const queue = new GroupCommitQueue<number, number>(() => {
    throw new Error("disk full");
  });
  const settled = await Promise.allSettled([queue.submit(1), queue.submit(2)]);
  expect(settled.every((s) => s.status === "rejected")).toBe(true);
});

test("flush() commits pending ops immediately", () => {
  const { queue, batches } = recordingQueue();
  void queue.submit(5);
  queue.flush();
  expect(batches).toEqual([[5]]);
});
