import { expect, test } from "bun:test";
import { RoutedStorage } from "../storage/routed-storage.ts";
import { openSqliteStorage } from "../storage/sqlite/mod.ts";
import { WatchBroker } from "../watch/mod.ts";
import type { CollectionEvent } from "../api/client.ts";
import { followCollection } from "./collection-follow.ts";

const value = (name: string, data = "") => JSON.stringify({ metadata: { name }, data });

test("followCollection() replays existing objects, then hands over later changes of the prefix only, on the watch broker", async () => {
  const storage = openSqliteStorage(":memory:");
  try {
    await storage.write({ op: "create", key: "/g/things/a", value: value("a") });
    await storage.write({ op: "create", key: "/g/other/x", value: value("x") });
    const seen: string[] = [];
    const follow = await followCollection(
      storage,
      new WatchBroker(storage),
      "/g/things/",
      (e: CollectionEvent) => seen.push(`${e.type} ${e.object.metadata.name}`),
    );
    await storage.write({ op: "create", key: "/g/things/b", value: value("b") });
    expect(seen).toEqual(["ADDED a", "ADDED b"]);
    await storage.write({ op: "update", key: "/g/things/a", value: value("a", "changed"), expectedRevision: 0 });
    await storage.write({ op: "delete", key: "/g/things/b", expectedRevision: 0 });
    await storage.write({ op: "create", key: "/g/other/y", value: value("y") });
    expect(seen).toEqual(["ADDED a", "ADDED b", "MODIFIED a", "DELETED b"]);
    follow.stop();
    await storage.write({ op: "create", key: "/g/things/c", value: value("c") });
    expect(seen).toHaveLength(4);
  } finally {
    await storage.close();
  }
});

test("following `/` over several revision sequences lists each store's own keys, then hands over every store's changes", async () => {
  const main = openSqliteStorage(":memory:");
  const events = openSqliteStorage(":memory:");
  const storage = new RoutedStorage(main, [{ prefix: "/core/events/", storage: events }]);
  try {
    for (const name of ["a", "b", "c"]) await storage.write({ op: "create", key: `/core/pods/ns/${name}`, value: value(name) });
    await storage.write({ op: "create", key: "/core/events/ns/e", value: value("e") });
    // Left on the main store from before the override: the events store serves that collection now.
    await main.write({ op: "create", key: "/core/events/ns/stale", value: value("stale") });
    const seen: string[] = [];
    const follow = await followCollection(storage, new WatchBroker(storage), "/", (e) => seen.push(`${e.type} ${e.object.metadata.name}`));
    expect(seen.toSorted()).toEqual(["ADDED a", "ADDED b", "ADDED c", "ADDED e"]);
    await storage.write({ op: "create", key: "/core/events/ns/f", value: value("f") });
    await storage.write({ op: "delete", key: "/core/pods/ns/a", expectedRevision: 0 });
    expect(seen.slice(4)).toEqual(["ADDED f", "DELETED a"]);
    follow.stop();
  } finally {
    await storage.close();
  }
});
