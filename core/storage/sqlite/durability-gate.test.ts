import { expect, test } from "bun:test";
import { DurabilityGate } from "./durability-gate.ts";
import { HeldSync } from "./_held-sync.ts";

/** A commit of more than one write: always synced on the thread pool. */
const BATCH = 2;

test("a commit is released only after a sync begun after it has finished", async () => {
  const log = new HeldSync();
  const gate = new DurabilityGate(log, () => {});
  const released: string[] = [];
  gate.committed(BATCH, () => released.push("first"), () => {});
  expect(log.started).toBe(1);
  gate.committed(BATCH, () => released.push("second"), () => {});
  // The second commit came after the running sync began: that sync does not cover it.
  await log.finish();
  await Promise.resolve();
  expect(released).toEqual(["first"]);
  expect(log.started).toBe(2);
  await log.finish();
  await Promise.resolve();
  expect(released).toEqual(["first", "second"]);
});

test("commits made while a sync runs share the next sync, and are released in the order they were made", async () => {
  const log = new HeldSync();
  const gate = new DurabilityGate(log, () => {});
  const released: number[] = [];
  gate.committed(BATCH, () => released.push(0), () => {});
  for (const n of [1, 2, 3]) gate.committed(BATCH, () => released.push(n), () => {});
  await log.finish();
  await Promise.resolve();
  await log.finish();
  await Promise.resolve();
  expect(released).toEqual([0, 1, 2, 3]);
  expect(log.started).toBe(2);
});

test("whenDurable waits for the commits noted before it, and not at all when every one is durable", async () => {
  const log = new HeldSync();
  const gate = new DurabilityGate(log, () => {});
  expect(gate.whenDurable()).toBeUndefined();
  gate.committed(BATCH, () => {}, () => {});
  let answered = false;
  void gate.whenDurable()!.then(() => (answered = true));
  await Promise.resolve();
  expect(answered).toBe(false);
  await log.finish();
  await new Promise((resolve) => setImmediate(resolve));
  expect(answered).toBe(true);
  expect(gate.whenDurable()).toBeUndefined();
});

test("a failed sync fails what it held and everything after it, and is reported once", async () => {
  const log = new HeldSync();
  const reported: unknown[] = [];
  const gate = new DurabilityGate(log, (error) => reported.push(error));
  const failures: unknown[] = [];
  gate.committed(BATCH, () => failures.push("released"), (error: unknown) => failures.push(error));
  log.fail(new Error("EIO"));
  await Promise.resolve();
  gate.committed(BATCH, () => failures.push("released"), (error: unknown) => failures.push(error));
  expect(failures.map(String)).toEqual(["Error: EIO", "Error: EIO"]);
  expect(() => gate.assertHealthy()).toThrow("EIO");
  await expect(gate.whenDurable()!).rejects.toThrow("EIO");
  expect(reported.length).toBe(1);
});

test("syncNow releases everything held before it returns, in order", () => {
  const log = new HeldSync();
  const gate = new DurabilityGate(log, () => {});
  const released: number[] = [];
  gate.committed(BATCH, () => released.push(1), () => {});
  gate.committed(BATCH, () => released.push(2), () => {});
  gate.syncNow();
  expect(released).toEqual([1, 2]);
  expect(log.syncedNow).toBe(1);
});

test("a lone write with no sync running is synced on this thread and released before committed() returns", () => {
  const log = new HeldSync();
  const gate = new DurabilityGate(log, () => {});
  const released: string[] = [];
  gate.committed(1, () => released.push("lone"), () => {});
  expect(released).toEqual(["lone"]);
  expect([log.syncedNow, log.started]).toEqual([1, 0]);
  expect(gate.whenDurable()).toBeUndefined();
});

test("a lone write while a sync runs waits its turn behind it", async () => {
  const log = new HeldSync();
  const gate = new DurabilityGate(log, () => {});
  const released: string[] = [];
  gate.committed(BATCH, () => released.push("batch"), () => {});
  gate.committed(1, () => released.push("lone"), () => {});
  expect([released, log.syncedNow]).toEqual([[], 0]);
  await log.finish();
  await Promise.resolve();
  await log.finish();
  await Promise.resolve();
  expect(released).toEqual(["batch", "lone"]);
});

/** Notes a commit of a batch named `name`, whose release records the name and then runs `then`. */
function batchNoter(gate: DurabilityGate, released: string[]) {
  return (name: string, then?: () => void) =>
    gate.committed(BATCH, () => {
      released.push(name);
      then?.();
    }, () => {});
}

test("a sync made while releasing (a subscriber reading another process's commits) keeps the releases in order", async () => {
  const log = new HeldSync();
  const gate = new DurabilityGate(log, () => {});
  const released: string[] = [];
  const note = batchNoter(gate, released);
  note("A");
  note("B", () => gate.syncNow());
  note("C");
  await log.finish();
  await Promise.resolve();
  // The second sync covers B and C; D comes after it began, and B's release syncs again, which covers D too.
  note("D");
  await log.finish();
  await Promise.resolve();
  expect(released).toEqual(["A", "B", "C", "D"]);
});

test("what a release hands out after syncing again (inOrder) goes after the releases already due", async () => {
  const log = new HeldSync();
  const gate = new DurabilityGate(log, () => {});
  const released: string[] = [];
  const note = batchNoter(gate, released);
  note("A");
  note("B", () => {
    gate.syncNow();
    gate.inOrder(() => released.push("other process"));
  });
  note("C");
  await log.finish();
  await Promise.resolve();
  await log.finish();
  await Promise.resolve();
  expect(released).toEqual(["A", "B", "C", "other process"]);
  gate.inOrder(() => released.push("now"));
  expect(released.at(-1)).toBe("now");
});
