import { expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isStorageError, type StorageEvent } from "../storage.ts";
import { openSqliteStorage } from "./mod.ts";

const create = (key: string, value = "v") => ({ op: "create", key, value }) as const;

async function rejection(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection");
}

test("create, get, update and delete advance the revision by one each", async () => {
  const storage = openSqliteStorage(":memory:");
  const created = await storage.write(create("/a/1", "one"));
  expect(created).toEqual({ key: "/a/1", value: "one", createRevision: 1, modRevision: 1 });
  const updated = await storage.write({ op: "update", key: "/a/1", value: "two", expectedRevision: 1 });
  expect(updated).toEqual({ key: "/a/1", value: "two", createRevision: 1, modRevision: 2 });
  expect(await storage.get("/a/1")).toEqual(updated);
  const deleted = await storage.write({ op: "delete", key: "/a/1", expectedRevision: 0 });
  expect(deleted).toEqual({ key: "/a/1", value: "two", createRevision: 1, modRevision: 3 });
  expect(await storage.get("/a/1")).toBeNull();
  expect(storage.currentRevision()).toBe(3);
  await storage.close();
});

test("write() rejects existing, missing and stale keys without consuming a revision", async () => {
  const storage = openSqliteStorage(":memory:");
  await storage.write(create("/a/1", "one"));
  const exists = await rejection(storage.write(create("/a/1")));
  expect(isStorageError(exists, "KeyExists") && exists.current?.value).toBe("one");
  const missing = await rejection(storage.write({ op: "update", key: "/a/2", value: "x", expectedRevision: 0 }));
  expect(isStorageError(missing, "NotFound")).toBe(true);
  const stale = await rejection(storage.write({ op: "delete", key: "/a/1", expectedRevision: 7 }));
  expect(isStorageError(stale, "Conflict") && stale.current?.modRevision).toBe(1);
  expect(storage.currentRevision()).toBe(1);
  await storage.close();
});

test("range() pages with startAfter and limit and counts the remaining keys", async () => {
  const storage = openSqliteStorage(":memory:");
  await Promise.all(["/a/1", "/a/2", "/a/3", "/a/4", "/a/5", "/ab/1", "/b/1"].map((key) => storage.write(create(key))));
  const first = await storage.range("/a/", { limit: 2 });
  expect(first.items.map((kv) => kv.key)).toEqual(["/a/1", "/a/2"]);
  expect(first.remaining).toBe(3);
  const last = await storage.range("/a/", { limit: 3, startAfter: "/a/2" });
  expect(last.items.map((kv) => kv.key)).toEqual(["/a/3", "/a/4", "/a/5"]);
  expect(last.remaining).toBe(0);
  expect((await storage.range("")).items).toHaveLength(7);
  expect(await storage.count("/a/")).toBe(5);
  await storage.close();
});

test("range() at a revision above the current one fails with FutureRevision", async () => {
  const storage = openSqliteStorage(":memory:");
  await storage.write(create("/a/1"));
  expect(isStorageError(await rejection(storage.range("/a/", { revision: 2 })), "FutureRevision")).toBe(true);
  await storage.close();
});

test("get() at an old revision returns the value as it was", async () => {
  const storage = openSqliteStorage(":memory:");
  await storage.write(create("/a/1", "one"));
  await storage.write({ op: "update", key: "/a/1", value: "two", expectedRevision: 0 });
  await storage.write({ op: "delete", key: "/a/1", expectedRevision: 0 });
  expect((await storage.get("/a/1", 1))?.value).toBe("one");
  expect((await storage.get("/a/1", 2))?.value).toBe("two");
  expect(await storage.get("/a/1", 3)).toBeNull();
  await storage.close();
});

test("eventsSince() replays the prefix's events after a revision, oldest first", async () => {
  const storage = openSqliteStorage(":memory:");
  await storage.write(create("/a/1", "one"));
  await storage.write(create("/b/1"));
  await storage.write({ op: "update", key: "/a/1", value: "two", expectedRevision: 0 });
  await storage.write({ op: "delete", key: "/a/1", expectedRevision: 0 });
  const events = await storage.eventsSince("/a/", 1);
  expect(events).toEqual([
    {
      type: "MODIFIED",
      revision: 3,
      kv: { key: "/a/1", value: "two", createRevision: 1, modRevision: 3 },
      prev: { key: "/a/1", value: "one", createRevision: 1, modRevision: 1 },
    },
    {
      type: "DELETED",
      revision: 4,
      kv: { key: "/a/1", value: "two", createRevision: 1, modRevision: 4 },
      prev: { key: "/a/1", value: "two", createRevision: 1, modRevision: 3 },
    },
  ]);
  await storage.close();
});

test("compact() makes older reads and replays fail with Compacted but keeps the compacted revision readable", async () => {
  const storage = openSqliteStorage(":memory:");
  for (let i = 1; i <= 5; i++) await storage.write(create(`/a/${i}`));
  await storage.write({ op: "delete", key: "/a/1", expectedRevision: 0 });
  await storage.compact(4);
  expect(storage.compactedRevision()).toBe(4);
  expect(isStorageError(await rejection(storage.eventsSince("/a/", 3)), "Compacted")).toBe(true);
  expect(isStorageError(await rejection(storage.range("/a/", { revision: 3 })), "Compacted")).toBe(true);
  expect((await storage.eventsSince("/a/", 4)).map((e) => e.revision)).toEqual([5, 6]);
  expect((await storage.range("/a/", { revision: 4 })).items.map((kv) => kv.key)).toEqual(["/a/1", "/a/2", "/a/3", "/a/4"]);
  await storage.close();
});

test("200 concurrent writes share transactions and get distinct, contiguous revisions", async () => {
  const storage = openSqliteStorage(":memory:");
  const results = await Promise.all(Array.from({ length: 200 }, (_, i) => storage.write(create(`/a/${i}`))));
  const revisions = results.map((kv) => kv.modRevision).sort((a, b) => a - b);
  expect(revisions).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
  expect(storage.stats()).toEqual({ transactions: 1, writes: 200 });
  await storage.close();
});

test("subscribers get committed events in revision order, even when another subscriber throws", async () => {
  const reported: unknown[] = [];
  const storage = openSqliteStorage(":memory:", { onSubscriberError: (error) => reported.push(error) });
  const seen: StorageEvent[] = [];
  storage.subscribe(() => {
    throw new Error("broken subscriber");
  });
  const unsubscribe = storage.subscribe((event) => seen.push(event));
  await Promise.allSettled([storage.write(create("/a/1")), storage.write(create("/a/2")), storage.write(create("/a/1"))]);
  expect(seen.map((e) => [e.type, e.revision, e.kv.key])).toEqual([["ADDED", 1, "/a/1"], ["ADDED", 2, "/a/2"]]);
  expect(reported).toHaveLength(2);
  unsubscribe();
  await storage.write(create("/a/3"));
  expect(seen).toHaveLength(2);
  await storage.close();
});

test("reopening a closed database keeps its data and revisions", async () => {
  const dir = mkdtempSync(join(tmpdir(), "kubun-sqlite-"));
  try {
    const path = join(dir, "state.db");
    const first = openSqliteStorage(path);
    await first.write(create("/a/1", "one"));
    await first.write(create("/a/2", "two"));
    await first.compact(1);
    await first.close();
    const second = openSqliteStorage(path);
    expect(second.currentRevision()).toBe(2);
    expect(second.compactedRevision()).toBe(1);
    expect((await second.get("/a/2"))?.value).toBe("two");
    expect((await second.write(create("/a/3"))).modRevision).toBe(3);
    await second.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("operations on a closed store fail with Closed", async () => {
  const storage = openSqliteStorage(":memory:");
  await storage.close();
  expect(isStorageError(await rejection(storage.write(create("/a/1"))), "Closed")).toBe(true);
  expect(isStorageError(await rejection(storage.get("/a/1")), "Closed")).toBe(true);
});
