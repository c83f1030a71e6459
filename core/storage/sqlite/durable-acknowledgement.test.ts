import { afterEach, expect, test } from "bun:test";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openSqliteDatabase } from "../../runtime/sqlite.ts";
import type { StorageEvent } from "../storage.ts";
import { HeldSync } from "./_held-sync.ts";
import { openSqliteStorage, type SqliteStorage } from "./mod.ts";
import { WalSync } from "./wal-sync.ts";
import { readStoredRevisions } from "./committed-history.ts";
import { prepareStatements } from "./statements.ts";
import { applyWriteBatch } from "./write-batch.ts";

const directories: string[] = [];
const opened: SqliteStorage[] = [];

afterEach(async () => {
  for (const storage of opened.splice(0)) await storage.close();
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

function databasePath(): string {
  const directory = mkdtempSync(join(tmpdir(), "kubun-durable-"));
  directories.push(directory);
  return join(directory, "kubun.db");
}

/** A storage whose WAL syncs (real ones, on the file) finish only when the test lets them. */
function heldStorage(path = databasePath()): { storage: SqliteStorage; log: HeldSync; path: string } {
  let log!: HeldSync;
  const storage = openSqliteStorage(path, { logSync: (walPath) => (log = new HeldSync(new WalSync(walPath))) });
  opened.push(storage);
  return { storage, log, path };
}

const create = (key: string) => ({ op: "create", key, value: "v" }) as const;
/** Writes sent in one turn share one commit; a batch of two is synced on the thread pool (a lone write is not). */
const writeTwo = (storage: SqliteStorage, first: string, second = `${first}-pair`) =>
  Promise.all([storage.write(create(first)), storage.write(create(second))]).then(([kv]) => kv);
const turns = () => new Promise((resolve) => setTimeout(resolve, 5));

/** Writes two keys in one batch and lets its sync finish: both are acknowledged. */
async function releaseTwo(storage: SqliteStorage, log: HeldSync, first: string): Promise<void> {
  const written = writeTwo(storage, first);
  await turns();
  await log.finish();
  await written;
}

/** Writes two keys in one batch whose sync then fails: both writes fail with its error. */
async function failHeldTwo(storage: SqliteStorage, log: HeldSync, first: string): Promise<void> {
  const held = writeTwo(storage, first);
  await turns();
  log.fail(new Error("EIO: the disk is gone"));
  await expect(held).rejects.toThrow("EIO");
}

test("a write is acknowledged, told to subscribers and counted in currentRevision only after its WAL sync", async () => {
  const { storage, log } = heldStorage();
  const events: StorageEvent[] = [];
  storage.subscribe((event) => events.push(event));
  let acknowledged = false;
  const written = writeTwo(storage, "/k/1").then((kv) => {
    // Subscribers (the watch broker, in-process followers) hear of the write before its writer does.
    expect(events.map((event) => event.revision)).toEqual([1, 2]);
    acknowledged = true;
    return kv;
  });
  await turns();
  expect(storage.stats().transactions).toBe(1);
  expect(log.running).toBe(1);
  expect([acknowledged, events.length, storage.currentRevision()]).toEqual([false, 0, 0]);
  await log.finish();
  expect((await written).modRevision).toBe(1);
  expect(storage.currentRevision()).toBe(2);
});

test("a read that sees a commit not yet durable is answered only once it is", async () => {
  const { storage, log } = heldStorage();
  const written = writeTwo(storage, "/k/1");
  await turns();
  let answer: unknown;
  const read = Promise.resolve(storage.get("/k/1")).then((kv) => (answer = kv));
  const listed = storage.range("/k/");
  await turns();
  expect(answer).toBeUndefined();
  await log.finish();
  await Promise.all([written, read]);
  expect((await listed).revision).toBe(2);
  expect(answer).toMatchObject({ key: "/k/1", modRevision: 1 });
});

test("a read at a revision already released answers at once, while a later commit's sync is held", async () => {
  const { storage, log } = heldStorage();
  await releaseTwo(storage, log, "/k/1");
  const later = writeTwo(storage, "/k/2");
  await turns();
  expect(await storage.get("/k/2-pair", 2)).toBeNull();
  expect((await storage.range("/k/", { revision: 2 })).items.map((kv) => kv.key)).toEqual(["/k/1", "/k/1-pair"]);
  expect(log.running).toBe(1);
  await log.finish();
  await later;
});

test("the next batch commits while the previous one's sync runs, and acknowledgements keep commit order", async () => {
  const { storage, log } = heldStorage();
  const order: string[] = [];
  const first = writeTwo(storage, "/k/1").then(() => order.push("first"));
  await turns();
  const second = storage.write(create("/k/2")).then(() => order.push("second"));
  const refused = storage.write(create("/k/1")).catch(() => order.push("refused"));
  await turns();
  // Two transactions are committed, one sync runs, the second batch waits for the next sync.
  expect([storage.stats().transactions, log.started]).toEqual([2, 1]);
  await log.finish();
  await turns();
  expect(order).toEqual(["first"]);
  await log.finish();
  await Promise.all([first, second, refused]);
  expect(order).toEqual(["first", "second", "refused"]);
});

test("after a failed WAL sync the writes it held fail and later writes are refused without being committed", async () => {
  const { storage, log } = heldStorage();
  await failHeldTwo(storage, log, "/k/1");
  await expect(storage.write(create("/k/2"))).rejects.toThrow("EIO");
  expect(storage.stats().transactions).toBe(1);
});

test("after a failed WAL sync a compaction commits nothing either: the compacted mark stays on disk where it was", async () => {
  const { storage, log, path } = heldStorage();
  await storage.write(create("/k/1"));
  await failHeldTwo(storage, log, "/k/2");
  await expect(storage.compact(1)).rejects.toThrow("EIO");
  const db = openSqliteDatabase(path);
  expect(db.prepare("SELECT compacted_rev FROM meta").get()).toEqual({ compacted_rev: 0 });
  db.close();
});

test("a failed WAL sync is told once to every failure subscriber, after the events released before it; a later subscriber is told too", async () => {
  const { storage, log } = heldStorage();
  const told: string[] = [];
  storage.subscribe((event) => told.push(`event ${event.revision}`), undefined, (failure) => told.push(`failure ${failure.error}`));
  await releaseTwo(storage, log, "/k/1");
  await failHeldTwo(storage, log, "/k/2");
  await expect(storage.write(create("/k/3"))).rejects.toThrow("EIO");
  expect(told).toEqual(["event 1", "event 2", "failure Error: EIO: the disk is gone"]);
  const late: unknown[] = [];
  storage.subscribe(() => {}, undefined, (failure) => late.push(failure.error));
  await turns();
  expect(late.map(String)).toEqual(["Error: EIO: the disk is gone"]);
});

test("after a failed WAL sync, another process's commits found by the poller fail reads, not the process", async () => {
  const path = databasePath();
  let log!: HeldSync;
  const storage = openSqliteStorage(path, { logSync: (walPath) => (log = new HeldSync(new WalSync(walPath))), foreignCommitPollMs: 5 });
  opened.push(storage);
  const { storage: writer } = heldStorage(path);
  const seen: number[] = [];
  storage.subscribe((event) => seen.push(event.revision));
  await failHeldTwo(storage, log, "/k/1");
  await writer.write(create("/other/1"));
  // Several polls find the other process's commit; each catch-up's sync refuses, and nothing is handed out.
  await new Promise((resolve) => setTimeout(resolve, 40));
  expect(seen).toEqual([]);
  await expect(storage.get("/other/1")).rejects.toThrow("EIO");
});

test("a TRUNCATE checkpoint while a commit's sync is pending: the sync still reaches the WAL file, writes go on", async () => {
  const { storage, log, path } = heldStorage();
  const first = writeTwo(storage, "/k/1");
  await turns();
  const inode = statSync(`${path}-wal`).ino;
  // As compaction's purge does (compaction.ts), from another connection: the frames go to the database file and
  // the WAL is cut to nothing, in place.
  const other = openSqliteDatabase(path);
  other.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  expect(statSync(`${path}-wal`).size).toBe(0);
  await log.finish();
  await first;
  const second = writeTwo(storage, "/k/2");
  await turns();
  await log.finish();
  expect((await second).modRevision).toBe(3);
  expect(statSync(`${path}-wal`).ino).toBe(inode);
  expect(other.prepare("SELECT COUNT(*) AS n FROM kv").get()).toEqual({ n: 4 });
  other.close();
});

test("another process's commits are synced here before this process hands them out, after its own held commits", async () => {
  const { storage: writer, log: writerLog, path } = heldStorage();
  const { storage: reader, log: readerLog } = heldStorage(path);
  const seen: number[] = [];
  reader.subscribe((event) => seen.push(event.revision));
  const own = writeTwo(reader, "/reader/1");
  await turns();
  const foreign = writeTwo(writer, "/writer/1");
  await turns();
  // The writer's commit (revisions 3, 4) is not acknowledged yet; the reader finds it and syncs the file itself
  // first, which also releases the reader's own commit (revisions 1, 2) ahead of it.
  expect(reader.currentRevision()).toBe(4);
  expect(readerLog.syncedNow).toBe(1);
  expect(seen).toEqual([1, 2, 3, 4]);
  await own;
  await writerLog.finish();
  await foreign;
  // The reader's own sync, begun before the on-thread one released its commit, is still running.
  await readerLog.finish();
});

test("close waits for a sync still running after an on-thread sync released everything, then closes the log", async () => {
  const { storage: writer, path } = heldStorage();
  const { storage: reader, log: readerLog } = heldStorage(path);
  const own = writeTwo(reader, "/reader/1");
  await turns();
  await writer.write(create("/writer/1"));
  // Finding the writer's commit syncs on the thread, which releases the reader's commit; its pool sync runs on.
  reader.currentRevision();
  await own;
  let closed = false;
  const closing = reader.close().then(() => (closed = true));
  await turns();
  expect(closed).toBe(false);
  await readerLog.finish();
  await closing;
  expect(closed).toBe(true);
});

test("another process's commit found by a read nested in a dispatch is synced before it is handed out", async () => {
  const path = databasePath();
  let log!: HeldSync;
  const reader = openSqliteStorage(path, { logSync: (walPath) => (log = new HeldSync(new WalSync(walPath))), foreignCommitPollMs: 60_000 });
  opened.push(reader);
  // Another process committing at synchronous=NORMAL, as a store does before its own sync.
  const other = openSqliteDatabase(path);
  other.exec("PRAGMA synchronous = NORMAL");
  const statements = prepareStatements(other);
  const commitElsewhere = (key: string) => {
    const op = create(key);
    other.transaction(() => applyWriteBatch(statements, [op], [op.value], readStoredRevisions(statements).current));
  };
  const syncs = () => log.syncedNow + log.started;
  const handedOut: { revision: number; syncsBefore: number }[] = [];
  reader.subscribe((event) => {
    handedOut.push({ revision: event.revision, syncsBefore: syncs() });
    if (event.revision !== 1) return;
    // Told of revision 1, a follower reads storage just after the other process committed revision 2.
    commitElsewhere("/other/2");
    void reader.get("/other/2");
  });
  try {
    commitElsewhere("/other/1");
    expect(reader.currentRevision()).toBe(2);
    expect(handedOut.map((each) => each.revision)).toEqual([1, 2]);
    // Revision 2 was committed after the sync that covered revision 1, so it took a sync of its own.
    expect(handedOut[1]!.syncsBefore).toBeGreaterThan(handedOut[0]!.syncsBefore);
  } finally {
    other.close();
  }
});

test("a lone write with no sync running is synced on this thread, before its acknowledgement", async () => {
  const { storage, log } = heldStorage();
  expect((await storage.write(create("/k/1"))).modRevision).toBe(1);
  expect([log.syncedNow, log.started]).toEqual([1, 0]);
});
