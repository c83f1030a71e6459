import { expect, test } from "bun:test";
import { RoutedStorage } from "../storage/routed-storage.ts";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { captureLogs } from "../log/testing.ts";
import { openSqliteStorage } from "../storage/sqlite/mod.ts";
import { WatchBroker } from "../watch/mod.ts";
import type { CollectionEvent } from "../api/client.ts";
import { followCollection } from "./collection-follow.ts";
import { decodeStoredWithoutVersion } from "./codec.ts";

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

test("a follower's decode makes what it is handed, listed and changed alike; by default decodeStored adds the resourceVersion", async () => {
  const storage = openSqliteStorage(":memory:");
  try {
    await storage.write({ op: "create", key: "/g/things/a", value: value("a") });
    const versions = (into: (string | undefined)[]) => (e: CollectionEvent) => into.push(e.object.metadata.resourceVersion);
    const byDefault: (string | undefined)[] = [];
    const asParsed: (string | undefined)[] = [];
    const broker = new WatchBroker(storage);
    const follows = [
      await followCollection(storage, broker, "/g/things/", versions(byDefault)),
      await followCollection(storage, broker, "/g/things/", versions(asParsed), undefined, undefined, decodeStoredWithoutVersion),
    ];
    await storage.write({ op: "create", key: "/g/things/b", value: value("b") });
    expect(byDefault).toEqual(["1", "2"]);
    expect(asParsed).toEqual([undefined, undefined]);
    for (const follow of follows) follow.stop();
  } finally {
    await storage.close();
  }
});

test("keep sees each stored object's key and text and the change's type; what it turns away is never decoded", async () => {
  const storage = openSqliteStorage(":memory:");
  try {
    await storage.write({ op: "create", key: "/g/things/listed-skip", value: value("listed-skip") });
    await storage.write({ op: "create", key: "/g/things/listed", value: value("listed", "wanted") });
    const decoded: string[] = [];
    const seen: string[] = [];
    const follow = await followCollection(
      storage,
      new WatchBroker(storage),
      "/g/things/",
      (e) => seen.push(`${e.type} ${e.object.metadata.name} at ${e.key}`),
      (kv, type) => type === "DELETED" || kv.value.includes("wanted"),
      undefined,
      (kv) => (decoded.push(kv.key), decodeStoredWithoutVersion(kv)),
    );
    await storage.write({ op: "create", key: "/g/things/skip", value: value("skip") });
    await storage.write({ op: "create", key: "/g/things/taken", value: value("taken", "wanted") });
    await storage.write({ op: "delete", key: "/g/things/skip", expectedRevision: 0 });
    expect(decoded).toEqual(["/g/things/listed", "/g/things/taken", "/g/things/skip"]);
    expect(seen).toEqual(["ADDED listed at /g/things/listed", "ADDED taken at /g/things/taken", "DELETED skip at /g/things/skip"]);
    follow.stop();
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

test("after lost watch history the collection is listed again and the difference handed over, as client-go's reflector relists and DeltaFIFO.Replace reports it", async () => {
  // Two storages on one file stand in for two processes; the follower's process does not poll, so the other's
  // writes and compaction land before it reads them: those events are lost to it.
  const directory = mkdtempSync(join(tmpdir(), "kubun-follow-"));
  const path = join(directory, "kubun.db");
  const follower = openSqliteStorage(path, { foreignCommitPollMs: 60_000 });
  const other = openSqliteStorage(path, { foreignCommitPollMs: 60_000 });
  const uid = (name: string) => `uid-${name}`;
  const object = (name: string, data = "") => JSON.stringify({ apiVersion: "v1", kind: "Thing", metadata: { name, uid: uid(name) }, data });
  try {
    for (const name of ["kept", "changed", "deleted"]) {
      await follower.write({ op: "create", key: `/g/things/${name}`, value: object(name) });
    }
    const seen: string[] = [];
    const follow = await followCollection(
      follower,
      new WatchBroker(follower),
      "/g/things/",
      (e: CollectionEvent) => seen.push(`${e.type} ${e.object.metadata.name} ${e.object.metadata.uid}`),
    );
    seen.length = 0;
    await other.write({ op: "update", key: "/g/things/changed", value: object("changed", "new"), expectedRevision: 0 });
    await other.write({ op: "delete", key: "/g/things/deleted", expectedRevision: 0 });
    const added = await other.write({ op: "create", key: "/g/things/added", value: object("added") });
    await other.compact(added.modRevision);
    const logged = captureLogs();
    follower.currentRevision();
    logged.restore();
    for (let i = 0; i < 100 && !seen.includes("ADDED added uid-added"); i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(seen).toEqual([
      "DELETED deleted uid-deleted",
      "ADDED added uid-added",
      "ADDED changed uid-changed",
      "ADDED kept uid-kept",
    ]);
    // Live again after the relist.
    await follower.write({ op: "create", key: "/g/things/later", value: object("later") });
    expect(seen.at(-1)).toBe("ADDED later uid-later");
    follow.stop();
  } finally {
    await follower.close();
    await other.close();
    rmSync(directory, { recursive: true, force: true });
  }
});
