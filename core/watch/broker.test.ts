import { afterEach, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { StatusError } from "../api/errors.ts";
import { RoutedStorage } from "../storage/routed-storage.ts";
import { openSqliteStorage, type SqliteStorage } from "../storage/sqlite/mod.ts";
import { HeldSync } from "../storage/sqlite/testing.ts";
import { isStorageError, type Storage, type WriteOp } from "../storage/storage.ts";
import { WatchBroker } from "./broker.ts";
import { type Watch, type WatchMessage, WatchOverflowError } from "./watch.ts";

const create = (key: string): WriteOp => ({ op: "create", key, value: "v" });

/** A storage whose history replay answers late, with the history as of when it answers. */
function withSlowReplay(storage: Storage): Storage {
  return Object.assign(Object.create(storage), {
    eventsSince: async (prefix: string, after: number) => {
      await sleep(5);
      return storage.eventsSince(prefix, after);
    },
    subscribe: storage.subscribe.bind(storage),
    currentRevision: storage.currentRevision.bind(storage),
  });
}

async function take(watch: Watch, count: number): Promise<WatchMessage[]> {
  const iterator = watch[Symbol.asyncIterator]();
  const messages: WatchMessage[] = [];
  while (messages.length < count) {
    const result = await Promise.race([iterator.next(), sleep(2000).then(() => "timeout" as const)]);
    if (result === "timeout") throw new Error(`timed out after ${messages.length} messages`);
    if (result.done) break;
    messages.push(result.value);
  }
  return messages;
}

const revisionsOf = (messages: WatchMessage[]) => messages.map((m) => (m.kind === "event" ? m.event.revision : `progress@${m.revision}`));

test("a watch started during concurrent writes yields every later event once, in order", async () => {
  const storage = openSqliteStorage(":memory:");
  const broker = new WatchBroker(withSlowReplay(storage));
  let watch: Watch | undefined;
  let startRevision = 0;
  for (let round = 0; round < 30; round++) {
    if (round === 10) {
      startRevision = storage.currentRevision() - 5;
      watch = broker.watch("/a/", startRevision);
    }
    await Promise.all([0, 1, 2].map((i) => storage.write(create(`/${i === 2 ? "b" : "a"}/${round}-${i}`))));
    await sleep(1);
  }
  const expected = await storage.eventsSince("/a/", startRevision);
  const messages = await take(watch!, expected.length);
  expect(messages).toEqual(expected.map((event) => ({ kind: "event", event })));
  broker.close();
  await storage.close();
});

test("a watch sees only keys under its prefix", async () => {
  const storage = openSqliteStorage(":memory:");
  const broker = new WatchBroker(storage);
  const watch = broker.watch("/a/", 0);
  for (const key of ["/a/1", "/ab/1", "/b/1", "/a/2"]) await storage.write(create(key));
  const messages = await take(watch, 2);
  expect(messages.map((m) => m.kind === "event" && m.event.kv.key)).toEqual(["/a/1", "/a/2"]);
  broker.close();
  await storage.close();
});

test("a watch from a compacted revision throws Compacted on its first next()", async () => {
  const storage = openSqliteStorage(":memory:");
  for (const key of ["/a/1", "/a/2", "/a/3"]) await storage.write(create(key));
  await storage.compact(2);
  const broker = new WatchBroker(storage);
  const error = await broker.watch("/a/", 1)[Symbol.asyncIterator]().next().catch((e) => e);
  expect(isStorageError(error, "Compacted")).toBe(true);
  broker.close();
  await storage.close();
});

test("a watch that falls behind its queue limit ends with WatchOverflowError", async () => {
  const storage = openSqliteStorage(":memory:");
  const broker = new WatchBroker(storage, { queueLimit: 5 });
  const watch = broker.watch("/a/", 0);
  await sleep(1);
  await Promise.all(Array.from({ length: 6 }, (_, i) => storage.write(create(`/a/${i}`))));
  const error = await watch[Symbol.asyncIterator]().next().catch((e) => e);
  expect(error).toBeInstanceOf(WatchOverflowError);
  expect(await watch[Symbol.asyncIterator]().next()).toEqual({ done: true, value: undefined });
  broker.close();
  await storage.close();
});

test("a progress message follows every event at or below its revision", async () => {
  const storage = openSqliteStorage(":memory:");
  await storage.write(create("/a/0"));
  const broker = new WatchBroker(storage);
  const watch = broker.watch("/a/", 0);
  broker.requestProgress(watch);
  await storage.write(create("/a/1"));
  await storage.write(create("/b/1"));
  broker.requestProgress(watch);
  broker.requestProgress(watch);
  await storage.write(create("/a/2"));
  expect(revisionsOf(await take(watch, 5))).toEqual([1, "progress@1", 2, "progress@3", 4]);
  broker.close();
  await storage.close();
});

test("a watch from a future revision yields only events after it", async () => {
  const storage = openSqliteStorage(":memory:");
  const broker = new WatchBroker(storage);
  const watch = broker.watch("/a/", 2);
  for (const key of ["/a/1", "/a/2", "/a/3"]) await storage.write(create(key));
  expect(revisionsOf(await take(watch, 1))).toEqual([3]);
  broker.close();
  await storage.close();
});

test("close() ends a waiting iteration and stops delivery", async () => {
  const storage = openSqliteStorage(":memory:");
  const broker = new WatchBroker(storage);
  const watch = broker.watch("/a/", 0);
  const pending = watch[Symbol.asyncIterator]().next();
  await sleep(1);
  watch.close();
  expect(await pending).toEqual({ done: true, value: undefined });
  await storage.write(create("/a/1"));
  expect(await watch[Symbol.asyncIterator]().next()).toEqual({ done: true, value: undefined });
  broker.close();
  await storage.close();
});

test("closing the broker ends every watch, including for-await loops", async () => {
  const storage = openSqliteStorage(":memory:");
  const broker = new WatchBroker(storage);
  const loops = ["/a/", "/b/"].map(async (prefix) => {
    const seen: WatchMessage[] = [];
    for await (const message of broker.watch(prefix, 0)) seen.push(message);
    return seen.length;
  });
  await storage.write(create("/a/1"));
  await sleep(1);
  broker.close();
  expect(await Promise.all(loops)).toEqual([1, 0]);
  expect(() => broker.watch("/a/", 0)).toThrow("closed");
  await storage.close();
});

test("follow() calls an in-process follower at commit, before the write resolves, for its prefix only; a throwing one breaks nothing", async () => {
  const storage = openSqliteStorage(":memory:");
  const broker = new WatchBroker(storage);
  const seen: string[] = [];
  const stop = broker.follow("/a/", (event) => seen.push(event.kv.key));
  broker.follow("/a/", () => {
    throw new Error("follower bug");
  });
  await storage.write(create("/a/1"));
  expect(seen).toEqual(["/a/1"]);
  await storage.write(create("/b/1"));
  stop();
  await storage.write(create("/a/2"));
  expect(seen).toEqual(["/a/1"]);
  broker.close();
  await storage.close();
});

test("on a store of several revision sequences a watch's progress carries its own sequence's revision", async () => {
  const main = openSqliteStorage(":memory:");
  const events = openSqliteStorage(":memory:");
  const storage = new RoutedStorage(main, [{ prefix: "/core/events/", storage: events }]);
  const broker = new WatchBroker(storage);
  const watch = broker.watch("/core/events/", 0);
  await storage.write(create("/core/events/e1"));
  for (let i = 0; i < 5; i++) await storage.write(create(`/core/pods/p${i}`));
  broker.requestProgress(watch);
  await storage.write(create("/core/events/e2"));
  expect(revisionsOf(await take(watch, 3))).toEqual([1, "progress@1", 2]);
  broker.close();
  await storage.close();
});

const directories: string[] = [];
afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

/** A store on a file whose WAL syncs the test fails by hand (a lone write is synced on the thread, and passes). */
function storeWithHeldSync(): { storage: SqliteStorage; log: HeldSync } {
  const directory = mkdtempSync(join(tmpdir(), "kubun-broker-"));
  directories.push(directory);
  let log!: HeldSync;
  const storage = openSqliteStorage(join(directory, "kubun.db"), { logSync: () => (log = new HeldSync()) });
  return { storage, log };
}

/** Fails the WAL sync of a two-write commit on `storage`: the storage fails for good. */
async function failSync(storage: Storage, log: HeldSync, key: string): Promise<void> {
  const held = Promise.all([storage.write(create(`${key}-1`)), storage.write(create(`${key}-2`))]);
  while (log.running === 0) await sleep(1);
  log.fail(new Error("EIO: the disk is gone"));
  await expect(held).rejects.toThrow("EIO");
}

function expectServiceUnavailable(start: () => unknown): void {
  let refusal: unknown;
  try {
    start();
  } catch (error) {
    refusal = error;
  }
  expect(refusal).toBeInstanceOf(StatusError);
  expect((refusal as StatusError).toStatus()).toMatchObject({
    code: 503,
    reason: "ServiceUnavailable",
    message: "apiserver cacher is stopped",
  });
}

test("after a failed WAL sync every open watch just ends and a new one is refused with 503 (Cacher.terminateAllWatchers, ready.wait Stopped)", async () => {
  const { storage, log } = storeWithHeldSync();
  const broker = new WatchBroker(storage);
  const watch = broker.watch("/a/", 0);
  await storage.write(create("/a/1"));
  const messages = watch[Symbol.asyncIterator]();
  expect(revisionsOf([(await messages.next()).value])).toEqual([1]);
  const replaying = broker.watch("/a/", 1);
  await failSync(storage, log, "/a/held");
  // The stream closes without an error: WatchServer returns when the cacheWatcher's result channel closes.
  expect(await messages.next()).toEqual({ done: true, value: undefined });
  expect(await replaying[Symbol.asyncIterator]().next()).toEqual({ done: true, value: undefined });
  expectServiceUnavailable(() => broker.watch("/a/", 1));
  expectServiceUnavailable(() => broker.watch("/b/", 0));
  broker.close();
  await storage.close();
});

test("on a store of several revision sequences only the failed sequence's watches end and refuse new ones", async () => {
  const main = storeWithHeldSync();
  const events = storeWithHeldSync();
  const storage = new RoutedStorage(main.storage, [{ prefix: "/core/events/", storage: events.storage }]);
  const broker = new WatchBroker(storage);
  const eventWatch = broker.watch("/core/events/", 0);
  const podWatch = broker.watch("/core/pods/", 0);
  await failSync(storage, events.log, "/core/events/e");
  expect(await eventWatch[Symbol.asyncIterator]().next()).toEqual({ done: true, value: undefined });
  expectServiceUnavailable(() => broker.watch("/core/events/", 0));
  await storage.write(create("/core/pods/p1"));
  expect(revisionsOf(await take(podWatch, 1))).toEqual([1]);
  expect(revisionsOf(await take(broker.watch("/core/pods/", 0), 1))).toEqual([1]);
  broker.close();
  await storage.close();
});
