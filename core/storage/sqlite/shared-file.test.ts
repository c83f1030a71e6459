import { afterEach, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { captureLogs } from "../../log/testing.ts";
import { WatchBroker } from "../../watch/mod.ts";
import type { StorageEvent } from "../storage.ts";
import { openSqliteStorage, type SqliteStorage } from "./mod.ts";

// Two connections on one file stand in for two kubun processes sharing a data directory.
const opened: SqliteStorage[] = [];
const directories: string[] = [];

function openPair(options: { foreignCommitPollMs?: number } = {}): [SqliteStorage, SqliteStorage] {
  const directory = mkdtempSync(join(tmpdir(), "kubun-shared-"));
  directories.push(directory);
  const path = join(directory, "kubun.db");
  const pair: [SqliteStorage, SqliteStorage] = [openSqliteStorage(path, options), openSqliteStorage(path, options)];
  opened.push(...pair);
  return pair;
}

afterEach(async () => {
  for (const storage of opened.splice(0)) await storage.close();
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

const create = (key: string, value = "v") => ({ op: "create", key, value }) as const;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

function recordEvents(storage: SqliteStorage): StorageEvent[] {
  const events: StorageEvent[] = [];
  storage.subscribe((event) => events.push(event));
  return events;
}

test("writes through two storages on one file get unique, contiguous revisions", async () => {
  const [a, b] = openPair();
  const writes = range(1, 40).flatMap((i) => [a.write(create(`/a/${i}`)), b.write(create(`/b/${i}`))]);
  const revisions = (await Promise.all(writes)).map((kv) => kv.modRevision);
  expect(revisions.sort((x, y) => x - y)).toEqual(range(1, 80));
  expect(a.currentRevision()).toBe(80);
  expect(b.currentRevision()).toBe(80);
});

test("each storage's subscribers get the other's commits exactly once, in revision order", async () => {
  const [a, b] = openPair({ foreignCommitPollMs: 10 });
  const seenByA = recordEvents(a);
  const seenByB = recordEvents(b);
  for (const i of range(1, 10)) {
    await (i % 2 === 0 ? a : b).write(create(`/k/${i}`));
    if (i % 3 === 0) await sleep(15);
  }
  await sleep(50);
  expect(seenByA.map((event) => event.revision)).toEqual(range(1, 10));
  expect(seenByB.map((event) => event.revision)).toEqual(range(1, 10));
  expect(seenByA.map((event) => event.kv.key)).toEqual(range(1, 10).map((i) => `/k/${i}`));
  expect(seenByA).toEqual(seenByB);
});

test("a commit dispatches the other storage's earlier commits before its own", async () => {
  const [a, b] = openPair({ foreignCommitPollMs: 60_000 });
  const seenByA = recordEvents(a);
  await b.write(create("/k/1"));
  await b.write({ op: "update", key: "/k/1", value: "w", expectedRevision: 1 });
  await a.write(create("/k/2"));
  expect(seenByA.map((event) => [event.type, event.revision])).toEqual([["ADDED", 1], ["MODIFIED", 2], ["ADDED", 3]]);
});

test("reads and revision counters reflect the other storage's writes and compaction", async () => {
  const [a, b] = openPair({ foreignCommitPollMs: 60_000 });
  await b.write(create("/k/1", "one"));
  await b.write(create("/k/2", "two"));
  expect(a.currentRevision()).toBe(2);
  expect((await a.range("/k/")).items.map((kv) => kv.value)).toEqual(["one", "two"]);
  expect(await a.get("/k/1", 1)).toEqual({ key: "/k/1", value: "one", createRevision: 1, modRevision: 1 });
  await b.compact(1);
  expect(a.compactedRevision()).toBe(1);
  await a.compact(2);
  expect(b.compactedRevision()).toBe(2);
});

test("a read after the other storage commits reports the revision its items are at", async () => {
  const [a, b] = openPair({ foreignCommitPollMs: 60_000 });
  await a.write(create("/k/1"));
  await b.write(create("/k/2"));
  const listed = await a.range("/k/");
  expect(listed.revision).toBe(2);
  expect(listed.items.length).toBe(2);
});

test("reads asked first at the other storage's newest revision are answered, not refused as future", async () => {
  const [a, b] = openPair({ foreignCommitPollMs: 60_000 });
  await b.write(create("/k/1", "one"));
  expect(await a.get("/k/1", 1)).toEqual({ key: "/k/1", value: "one", createRevision: 1, modRevision: 1 });
  await b.write(create("/k/2", "two"));
  expect((await a.range("/k/", { revision: 2 })).items.map((kv) => kv.value)).toEqual(["one", "two"]);
  await b.write(create("/k/3", "three"));
  expect((await a.eventsSince("/k/", 2)).map((event) => event.revision)).toEqual([3]);
  expect(await a.count("/k/")).toBe(3);
});

test("a read below the other storage's compaction is refused as compacted even before this storage asked for revisions", async () => {
  const [a, b] = openPair({ foreignCommitPollMs: 60_000 });
  await b.write(create("/k/1", "one"));
  await b.write({ op: "update", key: "/k/1", value: "uno", expectedRevision: 1 });
  await b.compact(2);
  expect(await Promise.resolve(a.get("/k/1", 1)).catch((error) => error)).toMatchObject({ code: "Compacted" });
  expect(await a.get("/k/1")).toMatchObject({ value: "uno", modRevision: 2 });
});

test("a watch on one storage sees writes made through the other", async () => {
  const [a, b] = openPair({ foreignCommitPollMs: 10 });
  const broker = new WatchBroker(a);
  const watch = broker.watch("/k/", 0);
  await b.write(create("/k/1", "from b"));
  const message = await watch[Symbol.asyncIterator]().next();
  expect(message.value).toMatchObject({ kind: "event", event: { type: "ADDED", revision: 1, kv: { value: "from b" } } });
  broker.close();
});

test("events the other storage compacted before they were dispatched are reported lost in order, and dispatch resumes after them", async () => {
  const [a, b] = openPair({ foreignCommitPollMs: 60_000 });
  const seenByA: string[] = [];
  a.subscribe((event) => seenByA.push(`event ${event.revision}`), (lost) => seenByA.push(`lost ${lost.from}..${lost.to}`));
  await b.write(create("/k/1"));
  await b.write(create("/k/2"));
  await b.write(create("/k/3"));
  await b.compact(2);
  const logged = captureLogs();
  expect(a.currentRevision()).toBe(3);
  logged.restore();
  expect(logged.lines.join("\n")).toContain("revisions 1..2 were compacted");
  expect(seenByA).toEqual(["lost 1..2", "event 3"]);
});

test("lost events end every watch of the broker and tell its followers, as kube's Cacher.terminateAllWatchers before its relist", async () => {
  const [a, b] = openPair({ foreignCommitPollMs: 60_000 });
  const broker = new WatchBroker(a);
  const watch = broker.watch("/k/", 0)[Symbol.asyncIterator]();
  const followed: string[] = [];
  broker.follow("/k/", (event) => followed.push(`event ${event.revision}`), (lost) => followed.push(`lost ${lost.from}..${lost.to}`));
  await b.write(create("/k/1"));
  await b.write(create("/k/2"));
  await b.compact(2);
  const logged = captureLogs();
  a.currentRevision();
  logged.restore();
  expect(await watch.next()).toEqual({ done: true, value: undefined });
  expect(followed).toEqual(["lost 1..2"]);
  // A watch from inside the lost range is refused, as the watch cache answers 410 after its relist.
  const error = await broker.watch("/k/", 1)[Symbol.asyncIterator]().next().catch((e) => e);
  expect(error).toMatchObject({ code: "Compacted" });
  broker.close();
});

test("a row one storage read is not answered again after the other storage changed it", async () => {
  const [a, b] = openPair();
  await a.write(create("/a/1", "one"));
  expect((await a.get("/a/1"))?.value).toBe("one");
  expect((await a.get("/a/1"))?.value).toBe("one");
  await b.write({ op: "update", key: "/a/1", value: "two", expectedRevision: 1 });
  expect(await a.get("/a/1")).toMatchObject({ value: "two", modRevision: 2 });
  await b.write({ op: "delete", key: "/a/1", expectedRevision: 2 });
  expect(await a.get("/a/1")).toBeNull();
});
