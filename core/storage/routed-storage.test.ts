import { afterEach, expect, test } from "bun:test";
import { rejection } from "./contract-suite.ts";
import { RoutedStorage } from "./routed-storage.ts";
import { openSqliteStorage } from "./sqlite/mod.ts";
import { isStorageError, sequenceOf, sequencesUnder, type Storage, type StorageEvent } from "./storage.ts";

const create = (key: string, value = "v") => ({ op: "create", key, value }) as const;

const opened: Storage[] = [];
afterEach(async () => {
  for (const storage of opened.splice(0)) await storage.close();
});

/** A main store and one more for /core/events/ and /coordination.k8s.io/leases/, as `--etcd-servers-overrides` makes. */
function routed() {
  const main = openSqliteStorage(":memory:");
  const events = openSqliteStorage(":memory:");
  const storage = new RoutedStorage(main, [
    { prefix: "/core/events/", storage: events },
    { prefix: "/coordination.k8s.io/leases/", storage: events },
  ]);
  opened.push(storage);
  return { main, events, storage };
}

test("storage_factory NewConfig: each key is written on its resource's store, at that store's revision sequence", async () => {
  const { main, events, storage } = routed();
  expect((await storage.write(create("/core/configmaps/a/x"))).modRevision).toBe(1);
  expect((await storage.write(create("/core/configmaps/a/y"))).modRevision).toBe(2);
  expect((await storage.write(create("/core/events/a/e1"))).modRevision).toBe(1);
  expect((await storage.write(create("/coordination.k8s.io/leases/a/l"))).modRevision).toBe(2);
  expect(await main.get("/core/events/a/e1")).toBeNull();
  expect((await events.get("/core/events/a/e1"))?.value).toBe("v");
  expect((await storage.get("/core/events/a/e1"))?.modRevision).toBe(1);
  const list = await storage.range("/core/events/a/");
  expect(list.items.map((kv) => kv.key)).toEqual(["/core/events/a/e1"]);
  expect(list.revision).toBe(2);
  expect(await storage.count("/core/configmaps/")).toBe(2);
  expect(sequenceOf(storage, "/core/events/a/").currentRevision()).toBe(2);
  expect(sequenceOf(storage, "/core/configmaps/").currentRevision()).toBe(2);
  expect(sequenceOf(storage, "/core/configmaps/")).toBe(main);
  expect(sequencesUnder(storage, "/")).toEqual([main, events]);
  expect(sequencesUnder(storage, "/core/")).toEqual([main, events]);
  expect(sequencesUnder(storage, "/apps/")).toEqual([main]);
  expect(sequencesUnder(storage, "/core/events/ns/")).toEqual([events]);
  expect(sequencesUnder(main, "/")).toEqual([main]);
});

test("a routed store's history and compaction are its own: eventsSince reads it, and its compacted revision answers 410's Compacted", async () => {
  const { events, storage } = routed();
  await storage.write(create("/core/configmaps/a/x"));
  for (const name of ["e1", "e2", "e3"]) await storage.write(create(`/core/events/a/${name}`));
  expect((await storage.eventsSince("/core/events/", 1)).map((event) => event.kv.key)).toEqual(["/core/events/a/e2", "/core/events/a/e3"]);
  await events.compact(2);
  expect(isStorageError(await rejection(storage.eventsSince("/core/events/", 1)), "Compacted")).toBe(true);
  expect(isStorageError(await rejection(storage.range("/core/events/", { revision: 1 })), "Compacted")).toBe(true);
  // The main store kept its history.
  expect(await storage.eventsSince("/core/configmaps/", 0)).toHaveLength(1);
  expect(storage.compactedRevision()).toBe(0);
});

test("subscribe hears every store's commits of the keys it serves, in each store's revision order", async () => {
  const { events, storage } = routed();
  const seen: StorageEvent[] = [];
  const unsubscribe = storage.subscribe((event) => seen.push(event));
  await storage.write(create("/core/configmaps/a/x"));
  await storage.write(create("/core/events/a/e1"));
  await storage.write(create("/core/events/a/e2"));
  // A key the main store serves, written on the events store behind the router's back (one etcd named twice).
  await events.write(create("/core/configmaps/a/shadow"));
  unsubscribe();
  await storage.write(create("/core/events/a/e3"));
  expect(seen.map((event) => [event.kv.key, event.revision])).toEqual([
    ["/core/configmaps/a/x", 1],
    ["/core/events/a/e1", 1],
    ["/core/events/a/e2", 2],
  ]);
});

test("a key prefix above a routed collection spans two revision sequences and is refused", async () => {
  const { storage } = routed();
  expect(() => sequenceOf(storage, "/core/")).toThrow("spans the stores of /core/events/ and the main one");
  expect(() => sequenceOf(storage, "/")).toThrow("spans");
  await expect(storage.range("/")).rejects.toThrow("spans");
  expect(() => new RoutedStorage(storage, [{ prefix: "/a/", storage }, { prefix: "/a/b/", storage }])).toThrow("overlap");
});
