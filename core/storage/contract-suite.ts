/**
 * The storage contract's cases, run against every backend (sqlite/sqlite-storage.test.ts, etcd/etcd-storage.test.ts):
 * each test opens a fresh, empty store through the backend's `open` and counts revisions from the one it starts at,
 * since etcd's revision is shared by everything on the cluster.
 */
import { afterEach, expect, test } from "bun:test";
import { isStorageError, type KeyValue, type Storage, type StorageEvent, type WriteOp } from "./storage.ts";

export interface ContractOptions {
  onSubscriberError?: (error: unknown) => void;
}

export type OpenStorage = (options?: ContractOptions) => Promise<Storage>;

const create = (key: string, value = "v") => ({ op: "create", key, value }) as const;

export async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection");
}

/** Registers the contract's tests, named `<backend>: <behaviour>`. */
export function storageContractSuite(backend: string, open: OpenStorage): void {
  const opened: Storage[] = [];
  const fresh = async (options?: ContractOptions) => {
    const storage = await open(options);
    opened.push(storage);
    return { storage, base: storage.currentRevision() };
  };
  afterEach(async () => {
    for (const storage of opened.splice(0)) await storage.close();
  });

  test(`${backend}: create, get, update and delete advance the revision by one each`, async () => {
    const { storage, base } = await fresh();
    const created = await storage.write(create("/a/1", "one"));
    expect(created).toEqual({ key: "/a/1", value: "one", createRevision: base + 1, modRevision: base + 1 });
    const updated = await storage.write({ op: "update", key: "/a/1", value: "two", expectedRevision: base + 1 });
    expect(updated).toEqual({ key: "/a/1", value: "two", createRevision: base + 1, modRevision: base + 2 });
    expect(await storage.get("/a/1")).toEqual(updated);
    const deleted = await storage.write({ op: "delete", key: "/a/1", expectedRevision: 0 });
    expect(deleted).toEqual({ key: "/a/1", value: "two", createRevision: base + 1, modRevision: base + 3 });
    expect(await storage.get("/a/1")).toBeNull();
    expect(storage.currentRevision()).toBe(base + 3);
  });

  test(`${backend}: write() rejects existing, missing and stale keys without consuming a revision`, async () => {
    const { storage, base } = await fresh();
    await storage.write(create("/a/1", "one"));
    const exists = await rejection(storage.write(create("/a/1")));
    expect(isStorageError(exists, "KeyExists") && exists.current?.value).toBe("one");
    const missing = await rejection(storage.write({ op: "update", key: "/a/2", value: "x", expectedRevision: 0 }));
    expect(isStorageError(missing, "NotFound")).toBe(true);
    const missingDelete = await rejection(storage.write({ op: "delete", key: "/a/2", expectedRevision: 0 }));
    expect(isStorageError(missingDelete, "NotFound")).toBe(true);
    const stale = await rejection(storage.write({ op: "delete", key: "/a/1", expectedRevision: base + 7 }));
    expect(isStorageError(stale, "Conflict") && stale.current?.modRevision).toBe(base + 1);
    const staleUpdate = await rejection(storage.write({ op: "update", key: "/a/1", value: "x", expectedRevision: base + 7 }));
    expect(isStorageError(staleUpdate, "Conflict") && staleUpdate.current?.value).toBe("one");
    expect(storage.currentRevision()).toBe(base + 1);
  });

  test(`${backend}: range() pages with startAfter and limit and counts the remaining keys`, async () => {
    const { storage } = await fresh();
    await Promise.all(["/a/1", "/a/2", "/a/3", "/a/4", "/a/5", "/ab/1", "/b/1"].map((key) => storage.write(create(key))));
    const first = await storage.range("/a/", { limit: 2 });
    expect(first.items.map((kv) => kv.key)).toEqual(["/a/1", "/a/2"]);
    expect(first.remaining).toBe(3);
    expect(first.revision).toBe(storage.currentRevision());
    const last = await storage.range("/a/", { limit: 3, startAfter: "/a/2" });
    expect(last.items.map((kv) => kv.key)).toEqual(["/a/3", "/a/4", "/a/5"]);
    expect(last.remaining).toBe(0);
    expect((await storage.range("")).items).toHaveLength(7);
    expect(await storage.count("/a/")).toBe(5);
  });

  test(`${backend}: range() at a revision above the current one fails with FutureRevision`, async () => {
    const { storage } = await fresh();
    await storage.write(create("/a/1"));
    const future = await rejection(storage.range("/a/", { revision: storage.currentRevision() + 1 }));
    expect(isStorageError(future, "FutureRevision")).toBe(true);
  });

  test(`${backend}: get() at an old revision returns the value as it was`, async () => {
    const { storage, base } = await fresh();
    await storage.write(create("/a/1", "one"));
    await storage.write({ op: "update", key: "/a/1", value: "two", expectedRevision: 0 });
    await storage.write({ op: "delete", key: "/a/1", expectedRevision: 0 });
    expect((await storage.get("/a/1", base + 1))?.value).toBe("one");
    expect((await storage.get("/a/1", base + 2))?.value).toBe("two");
    expect(await storage.get("/a/1", base + 3)).toBeNull();
  });

  test(`${backend}: eventsSince() replays the prefix's events after a revision, oldest first`, async () => {
    const { storage, base } = await fresh();
    await storage.write(create("/a/1", "one"));
    await storage.write(create("/b/1"));
    await storage.write({ op: "update", key: "/a/1", value: "two", expectedRevision: 0 });
    await storage.write({ op: "delete", key: "/a/1", expectedRevision: 0 });
    expect(await storage.eventsSince("/a/", base + 1)).toEqual([
      {
        type: "MODIFIED",
        revision: base + 3,
        kv: { key: "/a/1", value: "two", createRevision: base + 1, modRevision: base + 3 },
        prev: { key: "/a/1", value: "one", createRevision: base + 1, modRevision: base + 1 },
      },
      {
        type: "DELETED",
        revision: base + 4,
        kv: { key: "/a/1", value: "two", createRevision: base + 1, modRevision: base + 4 },
        prev: { key: "/a/1", value: "two", createRevision: base + 1, modRevision: base + 3 },
      },
    ]);
    expect((await storage.eventsSince("/", base)).map((event) => [event.type, event.kv.key])).toEqual([
      ["ADDED", "/a/1"],
      ["ADDED", "/b/1"],
      ["MODIFIED", "/a/1"],
      ["DELETED", "/a/1"],
    ]);
    expect(await storage.eventsSince("/a/", base + 4)).toEqual([]);
  });

  test(`${backend}: compact() makes older reads and replays fail with Compacted but keeps the compacted revision readable`, async () => {
    const { storage, base } = await fresh();
    for (let i = 1; i <= 5; i++) await storage.write(create(`/a/${i}`));
    await storage.write({ op: "delete", key: "/a/1", expectedRevision: 0 });
    await storage.compact(base + 4);
    expect(storage.compactedRevision()).toBe(base + 4);
    expect(isStorageError(await rejection(storage.eventsSince("/a/", base + 3)), "Compacted")).toBe(true);
    expect(isStorageError(await rejection(storage.range("/a/", { revision: base + 3 })), "Compacted")).toBe(true);
    expect((await storage.eventsSince("/a/", base + 4)).map((e) => e.revision)).toEqual([base + 5, base + 6]);
    expect((await storage.range("/a/", { revision: base + 4 })).items.map((kv) => kv.key)).toEqual(["/a/1", "/a/2", "/a/3", "/a/4"]);
  });

  test(`${backend}: 200 concurrent writes get distinct, contiguous revisions`, async () => {
    const { storage, base } = await fresh();
    const results = await Promise.all(Array.from({ length: 200 }, (_, i) => storage.write(create(`/a/${i}`))));
    const revisions = results.map((kv) => kv.modRevision).sort((a, b) => a - b);
    expect(revisions).toEqual(Array.from({ length: 200 }, (_, i) => base + i + 1));
  });

  test(`${backend}: subscribers get each committed event once, in revision order, before the write resolves, even when another subscriber throws`, async () => {
    const reported: unknown[] = [];
    const { storage, base } = await fresh({ onSubscriberError: (error) => reported.push(error) });
    const seen: StorageEvent[] = [];
    storage.subscribe(() => {
      throw new Error("broken subscriber");
    });
    const unsubscribe = storage.subscribe((event) => seen.push(event));
    await storage.write(create("/a/1"));
    expect(seen.map((e) => [e.type, e.revision, e.kv.key])).toEqual([["ADDED", base + 1, "/a/1"]]);
    await Promise.allSettled([storage.write(create("/a/2")), storage.write(create("/a/1")), storage.write(create("/a/3"))]);
    expect(seen.map((e) => e.revision)).toEqual([base + 1, base + 2, base + 3]);
    expect(seen.map((e) => e.kv.key).sort()).toEqual(["/a/1", "/a/2", "/a/3"]);
    expect(reported).toHaveLength(3);
    unsubscribe();
    await storage.write(create("/a/4"));
    expect(seen).toHaveLength(3);
  });

  test(`${backend}: operations on a closed store fail with Closed`, async () => {
    const storage = await open();
    await storage.close();
    expect(isStorageError(await rejection(storage.write(create("/a/1"))), "Closed")).toBe(true);
    expect(isStorageError(await rejection(Promise.resolve(storage.get("/a/1"))), "Closed")).toBe(true);
  });

  test(`${backend}: range() at every past revision matches the snapshot recorded at that revision`, async () => {
    const { storage, base } = await fresh();
    const random = seededRandom(42);
    const model = new Map<string, KeyValue>();
    const snapshots = new Map<number, Map<string, KeyValue>>();
    for (let step = 0; step < 300; step++) {
      const op = randomOp(random, model, step);
      const kv = await storage.write(op);
      if (op.op === "delete") model.delete(op.key);
      else model.set(op.key, kv);
      snapshots.set(kv.modRevision, new Map(model));
    }
    for (const [revision, snapshot] of snapshots) {
      for (const prefix of ["/r/", "/r/a/"]) {
        expect((await storage.range(prefix, { revision })).items).toEqual(snapshotOf(snapshot, prefix));
      }
      expect(await pageThrough(storage, "/r/b/", revision, 4)).toEqual(snapshotOf(snapshot, "/r/b/"));
      expect(await storage.get("/r/a/3", revision)).toEqual(snapshot.get("/r/a/3") ?? null);
    }
    await storage.compact(base + 150);
    expect((await storage.range("/r/", { revision: base + 200 })).items).toEqual(snapshotOf(snapshots.get(base + 200)!, "/r/"));
    expect(isStorageError(await rejection(storage.range("/r/", { revision: base + 149 })), "Compacted")).toBe(true);
  });

  test(`${backend}: range() with skipRemaining pages to the same items at a past revision and leaves remaining uncounted`, async () => {
    const { storage } = await fresh();
    for (let i = 0; i < 30; i++) await storage.write({ op: "create", key: `/p/${String(i).padStart(2, "0")}`, value: `v${i}` });
    const revision = storage.currentRevision();
    await storage.write({ op: "delete", key: "/p/05", expectedRevision: 0 });
    await storage.write({ op: "create", key: "/p/99", value: "late" });
    const paged: KeyValue[] = [];
    let startAfter: string | undefined;
    for (;;) {
      const page = await storage.range("/p/", { revision, limit: 7, startAfter, skipRemaining: true });
      expect(page.remaining).toBe(0);
      paged.push(...page.items);
      if (page.items.length < 7) break;
      startAfter = page.items[page.items.length - 1]!.key;
    }
    expect(paged).toEqual((await storage.range("/p/", { revision })).items);
    expect(paged.map((kv) => kv.key)).toContain("/p/05");
    expect(paged).toHaveLength(30);
  });
}

/** A small deterministic PRNG (mulberry32) so a failure reproduces. */
export function seededRandom(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomOp(random: () => number, model: Map<string, KeyValue>, step: number): WriteOp {
  const key = `/r/${random() < 0.5 ? "a" : "b"}/${Math.floor(random() * 25)}`;
  if (!model.has(key)) return { op: "create", key, value: `v${step}` };
  return random() < 0.6
    ? { op: "update", key, value: `v${step}`, expectedRevision: model.get(key)!.modRevision }
    : { op: "delete", key, expectedRevision: 0 };
}

function snapshotOf(model: Map<string, KeyValue>, prefix: string): KeyValue[] {
  return [...model.values()].filter((kv) => kv.key.startsWith(prefix)).sort((x, y) => (x.key < y.key ? -1 : 1));
}

async function pageThrough(storage: Storage, prefix: string, revision: number, limit: number) {
  const items: KeyValue[] = [];
  let startAfter: string | undefined;
  for (;;) {
    const page = await storage.range(prefix, { revision, limit, startAfter });
    items.push(...page.items);
    expect(page.remaining).toBe(page.items.length === limit ? page.remaining : 0);
    if (page.remaining === 0) return items;
    startAfter = page.items[page.items.length - 1]!.key;
  }
}
