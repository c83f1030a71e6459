import { expect, test } from "bun:test";
import { openSqliteStorage } from "./sqlite/mod.ts";
import { RoutedStorage } from "./routed-storage.ts";
import { startTtlExpiry } from "./ttl-expiry.ts";

const HOUR = 3_600_000;

async function keys(storage: ReturnType<typeof openSqliteStorage>, prefix: string): Promise<string[]> {
  return (await storage.range(prefix)).items.map((kv) => kv.key);
}

test("a key expires once its last write is older than the TTL (etcd's lease granted per write)", async () => {
  const storage = openSqliteStorage(":memory:");
  let clock = 0;
  const expiry = startTtlExpiry(storage, ["/core/events/"], { ttlMs: 60_000, intervalMs: HOUR, now: () => clock });
  await storage.write({ op: "create", key: "/core/events/ns/old", value: "v" });
  await storage.write({ op: "create", key: "/core/events/ns/renewed", value: "v" });
  await storage.write({ op: "create", key: "/core/pods/ns/p", value: "v" });
  await expiry.tick(); // t=0
  clock = 30_000;
  const renewed = await storage.get("/core/events/ns/renewed");
  await storage.write({ op: "update", key: "/core/events/ns/renewed", value: "v2", expectedRevision: renewed!.modRevision });
  await storage.write({ op: "create", key: "/core/events/ns/young", value: "v" });
  await expiry.tick(); // t=30s
  expect(await keys(storage, "/core/events/")).toEqual(["/core/events/ns/old", "/core/events/ns/renewed", "/core/events/ns/young"]);
  clock = 60_000;
  await expiry.tick(); // t=60s: what was last written before t=0's sample is gone
  expect(await keys(storage, "/core/events/")).toEqual(["/core/events/ns/renewed", "/core/events/ns/young"]);
  clock = 90_000;
  await expiry.tick();
  expect(await keys(storage, "/core/events/")).toEqual([]);
  expect(await keys(storage, "/core/pods/")).toEqual(["/core/pods/ns/p"]);
  expiry.stop();
  await storage.close();
});

test("expiry goes through storage deletes, so watchers get DELETED", async () => {
  const storage = openSqliteStorage(":memory:");
  let clock = 0;
  const expiry = startTtlExpiry(storage, ["/core/events/"], { ttlMs: 1_000, intervalMs: HOUR, now: () => clock });
  await storage.write({ op: "create", key: "/core/events/ns/e", value: "v" });
  const seen: string[] = [];
  storage.subscribe((event) => seen.push(`${event.type} ${event.kv.key}`));
  await expiry.tick();
  clock = 1_000;
  await expiry.tick();
  expect(seen).toEqual(["DELETED /core/events/ns/e"]);
  expiry.stop();
  await storage.close();
});

test("events on their own store (--etcd-servers-overrides) expire by that store's revisions, not the main store's", async () => {
  const main = openSqliteStorage(":memory:");
  const events = openSqliteStorage(":memory:");
  const storage = new RoutedStorage(main, [{ prefix: "/core/events/", storage: events }]);
  for (let i = 0; i < 10; i++) await storage.write({ op: "create", key: `/core/pods/ns/p${i}`, value: "v" });
  let clock = 0;
  const expiry = startTtlExpiry(storage, ["/core/events/"], { ttlMs: 60_000, intervalMs: HOUR, now: () => clock });
  await storage.write({ op: "create", key: "/core/events/ns/old", value: "v" });
  await expiry.tick(); // t=0: the events store is at revision 1, the main one at 10
  clock = 30_000;
  await storage.write({ op: "create", key: "/core/events/ns/young", value: "v" });
  await expiry.tick();
  clock = 60_000;
  await expiry.tick();
  expect(await keys(events, "/core/events/")).toEqual(["/core/events/ns/young"]);
  expect(await keys(main, "/core/pods/")).toHaveLength(10);
  expiry.stop();
  await storage.close();
});
