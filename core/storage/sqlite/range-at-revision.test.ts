import { expect, test } from "bun:test";
import { isStorageError, type KeyValue, type WriteOp } from "../storage.ts";
import { openSqliteStorage } from "./mod.ts";

/** A small deterministic PRNG (mulberry32) so a failure reproduces. */
function seededRandom(seed: number) {
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

async function pageThrough(storage: ReturnType<typeof openSqliteStorage>, prefix: string, revision: number, limit: number) {
  const items: KeyValue[] = [];
  let startAfter: string | undefined;
  for (;;) {
    const page = await storage.range(prefix, { revision, limit, startAfter });
    items.push(...page.items);
    const expectedRemaining = page.items.length === limit ? page.remaining : 0;
    expect(page.remaining).toBe(expectedRemaining);
    if (page.remaining === 0) return items;
    startAfter = page.items[page.items.length - 1]!.key;
  }
}

test("range() at every past revision matches the snapshot recorded at that revision", async () => {
  const storage = openSqliteStorage(":memory:");
  const random = seededRandom(42);
  const model = new Map<string, KeyValue>();
  const snapshots = new Map<number, Map<string, KeyValue>>();
  for (let step = 0; step < 400; step++) {
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

  await storage.compact(200);
  expect((await storage.range("/r/", { revision: 250 })).items).toEqual(snapshotOf(snapshots.get(250)!, "/r/"));
  const compacted = await storage.range("/r/", { revision: 199 }).catch((error) => error);
  expect(isStorageError(compacted, "Compacted")).toBe(true);
  await storage.close();
});

test("range() with skipRemaining pages to the same items at a past revision and leaves remaining uncounted", async () => {
  const storage = openSqliteStorage(":memory:");
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
  await storage.close();
});
