import { expect, spyOn, test } from "bun:test";
import * as fflate from "fflate";
import { join } from "node:path";
import type { SqliteDatabase } from "../../runtime/sqlite-driver.ts";
import { openSqliteDatabase } from "../../runtime/sqlite.ts";
import type { StorageEvent } from "../storage.ts";
import { openSqliteStorage, restoreSnapshot, saveSnapshot, SqliteStorage } from "./mod.ts";
import { FORMAT_VERSION, TEXT_ONLY_FORMAT } from "./schema.ts";
import { LEASE_PREFIX, leaseValue, withDatabasePath } from "./testing.ts";

const KEY = (name: string) => `${LEASE_PREFIX}kube-node-lease/${name}`;
const CONFIGMAP = "/core/configmaps/default/settings";
const compressed = { compressedKeyPrefixes: [LEASE_PREFIX] };

/** The stored `history.value` of each revision, read beside the store as SQLite holds it. */
function storedValues(path: string): Map<number, unknown> {
  const db = openSqliteDatabase(path);
  try {
    return new Map(db.prepare("SELECT rev, value FROM history").all().map((row) => [Number(row.rev), row.value]));
  } finally {
    db.close();
  }
}

/** Writes sim-0 created, renewed twice and a ConfigMap, answering the Lease's value at each of its revisions. */
async function writeLeaseHistory(storage: SqliteStorage): Promise<string[]> {
  const values = [leaseValue("sim-0", 0), leaseValue("sim-0", 10), leaseValue("sim-0", 20)];
  await storage.write({ op: "create", key: KEY("sim-0"), value: values[0]! });
  await storage.write({ op: "create", key: CONFIGMAP, value: '{"data":{"a":"b"}}' });
  await storage.write({ op: "update", key: KEY("sim-0"), value: values[1]!, expectedRevision: 0 });
  await storage.write({ op: "update", key: KEY("sim-0"), value: values[2]!, expectedRevision: 0 });
  return values;
}

test("a Lease is written as a BLOB and read back as its JSON: get, get at a past revision, range, range at a past revision", () =>
  withDatabasePath(async (path) => {
    const storage = openSqliteStorage(path, compressed);
    const values = await writeLeaseHistory(storage);
    const stored = storedValues(path);
    for (const rev of [1, 3, 4]) {
      expect(stored.get(rev)).toBeInstanceOf(Uint8Array);
      expect((stored.get(rev) as Uint8Array)[0]).toBe(1);
    }
    expect(stored.get(2)).toBe('{"data":{"a":"b"}}');

    expect(await storage.get(KEY("sim-0"))).toEqual({ key: KEY("sim-0"), value: values[2]!, createRevision: 1, modRevision: 4 });
    expect((await storage.get(KEY("sim-0"), 3))?.value).toBe(values[1]!);
    expect((await storage.get(KEY("sim-0"), 2))?.value).toBe(values[0]!);
    expect((await storage.range(LEASE_PREFIX)).items.map((kv) => kv.value)).toEqual([values[2]!]);
    expect((await storage.range("/", { revision: 3 })).items.map((kv) => kv.value)).toEqual([values[1]!, '{"data":{"a":"b"}}']);
    await storage.close();
  }));

test("a watch from an old revision and another process's store get the events with the Leases' JSON (historyRowToEvent)", () =>
  withDatabasePath(async (path) => {
    const storage = openSqliteStorage(path, compressed);
    const other = openSqliteStorage(path, { foreignCommitPollMs: 5 });
    const seenByOther: StorageEvent[] = [];
    other.subscribe((event) => seenByOther.push(event));
    const seenHere: StorageEvent[] = [];
    storage.subscribe((event) => seenHere.push(event));
    const values = await writeLeaseHistory(storage);
    await storage.write({ op: "delete", key: KEY("sim-0"), expectedRevision: 0 });

    const replayed = await storage.eventsSince(LEASE_PREFIX, 1);
    expect(replayed.map((event) => [event.type, event.kv.value, event.prev?.value])).toEqual([
      ["MODIFIED", values[1], values[0]],
      ["MODIFIED", values[2], values[1]],
      ["DELETED", values[2], values[2]],
    ]);
    // This process's own events carry the text it wrote; the other process reads them from history.
    expect(seenHere).toEqual(await storage.eventsSince("/", 0));
    while (seenByOther.length < 5) await other.get(KEY("sim-0"));
    expect(seenByOther).toEqual(seenHere);
    await other.close();
    await storage.close();
  }));

test("a Lease is deflated before its write transaction begins, so the write lock is not held while deflating (SqliteStorage #commit)", () =>
  withDatabasePath(async (path) => {
    const db = openSqliteDatabase(path);
    let inTransaction = false;
    const watched: SqliteDatabase = {
      exec: (sql) => db.exec(sql),
      prepare: (sql) => db.prepare(sql),
      copyInto: (file) => db.copyInto(file),
      close: () => db.close(),
      transaction: (fn) => {
        inTransaction = true;
        try {
          return db.transaction(fn);
        } finally {
          inTransaction = false;
        }
      },
    };
    const deflateSync = fflate.deflateSync;
    const deflatedInTransaction: boolean[] = [];
    const deflate = spyOn(fflate, "deflateSync").mockImplementation((...args) => {
      deflatedInTransaction.push(inTransaction);
      return deflateSync(...args);
    });
    try {
      const storage = new SqliteStorage(watched, compressed);
      await writeLeaseHistory(storage);
      await storage.close();
    } finally {
      deflate.mockRestore();
    }
    expect(deflatedInTransaction).toEqual([false, false, false]);
    expect(storedValues(path).get(4)).toBeInstanceOf(Uint8Array);
  }));

test("compaction purges superseded compressed rows and keeps the newest readable (compactThrough)", () =>
  withDatabasePath(async (path) => {
    const storage = openSqliteStorage(path, compressed);
    const values = await writeLeaseHistory(storage);
    await storage.compact(4);
    expect([...storedValues(path).keys()].sort()).toEqual([2, 4]);
    expect((await storage.get(KEY("sim-0")))?.value).toBe(values[2]!);
    await storage.close();
  }));

/** A format-2 file holding sim-0 created at revision 1: format 3's tables with every value TEXT. */
async function makeFormatTwoFile(path: string): Promise<void> {
  const storage = openSqliteStorage(path);
  await storage.write({ op: "create", key: KEY("sim-0"), value: leaseValue("sim-0", 0) });
  await storage.close();
  const db = openSqliteDatabase(path);
  db.exec(`PRAGMA user_version = ${TEXT_ONLY_FORMAT}`);
  db.close();
}

function userVersion(path: string): unknown {
  const db = openSqliteDatabase(path);
  try {
    return db.prepare("PRAGMA user_version").get()!.user_version;
  } finally {
    db.close();
  }
}

test("a format-2 database opened exclusively becomes format 3 with its TEXT rows as they were, and reads beside new BLOB rows (ensureFormat)", () =>
  withDatabasePath(async (path) => {
    await makeFormatTwoFile(path);
    const storage = openSqliteStorage(path, { ...compressed, exclusive: true });
    await storage.write({ op: "update", key: KEY("sim-0"), value: leaseValue("sim-0", 10), expectedRevision: 0 });
    expect((await storage.eventsSince(LEASE_PREFIX, 1)).map((event) => [event.kv.value, event.prev?.value])).toEqual([
      [leaseValue("sim-0", 10), leaseValue("sim-0", 0)],
    ]);
    await storage.close();
    const stored = storedValues(path);
    expect(stored.get(1)).toBe(leaseValue("sim-0", 0));
    expect(stored.get(2)).toBeInstanceOf(Uint8Array);
    expect(userVersion(path)).toBe(FORMAT_VERSION);
    expect(FORMAT_VERSION).toBe(3);
  }));

// A kubun of format 2 serving from a shared file reads history.value as text: a BLOB there would reach its clients
// as "1,163,94,...". So only a store holding the file alone makes it format 3 (ensureFormat).
test("a format-2 file opened shared stays format 2: a second store writes no BLOB and the first reads its Leases as text (ensureFormat)", () =>
  withDatabasePath(async (path) => {
    await makeFormatTwoFile(path);
    const first = openSqliteStorage(path, { foreignCommitPollMs: 5 });
    const second = openSqliteStorage(path, compressed);
    await second.write({ op: "update", key: KEY("sim-0"), value: leaseValue("sim-0", 10), expectedRevision: 0 });
    await second.write({ op: "create", key: KEY("sim-1"), value: leaseValue("sim-1", 10) });
    expect(userVersion(path)).toBe(TEXT_ONLY_FORMAT);
    expect([...storedValues(path).values()]).toEqual([leaseValue("sim-0", 0), leaseValue("sim-0", 10), leaseValue("sim-1", 10)]);
    expect((await first.range(LEASE_PREFIX)).items.map((kv) => kv.value)).toEqual([leaseValue("sim-0", 10), leaseValue("sim-1", 10)]);
    await second.close();
    await first.close();

    // Alone with the file, a store makes it format 3 and deflates from then on.
    const alone = openSqliteStorage(path, { ...compressed, exclusive: true });
    await alone.write({ op: "update", key: KEY("sim-1"), value: leaseValue("sim-1", 20), expectedRevision: 0 });
    await alone.close();
    expect(userVersion(path)).toBe(FORMAT_VERSION);
    expect(storedValues(path).get(4)).toBeInstanceOf(Uint8Array);
  }));

test("a new database is created at format 3 by a shared store too, which deflates its Leases (ensureFormat)", () =>
  withDatabasePath(async (path) => {
    const storage = openSqliteStorage(path, compressed);
    await storage.write({ op: "create", key: KEY("sim-0"), value: leaseValue("sim-0", 0) });
    await storage.close();
    expect(userVersion(path)).toBe(FORMAT_VERSION);
    expect(storedValues(path).get(1)).toBeInstanceOf(Uint8Array);
  }));

test("a kubun of an older format refuses a format-3 file with its clear error instead of reading a BLOB as text", () =>
  withDatabasePath((path) => {
    openSqliteStorage(path).close();
    const db = openSqliteDatabase(path);
    db.exec(`PRAGMA user_version = ${FORMAT_VERSION + 1}`);
    db.close();
    expect(() => openSqliteStorage(path)).toThrow(
      `kubun.db is of storage format ${FORMAT_VERSION + 1}; this kubun reads format ${FORMAT_VERSION}`,
    );
  }));

test("snapshots keep compressed Leases, and a format-2 snapshot restores as format 3", () =>
  withDatabasePath(async (path) => {
    const storage = openSqliteStorage(path, compressed);
    const values = await writeLeaseHistory(storage);
    const snapshot = join(path, "..", "snapshot.db");
    await saveSnapshot(path, snapshot);
    await storage.close();
    const formatTwo = openSqliteDatabase(snapshot);
    formatTwo.exec("PRAGMA user_version = 2");
    formatTwo.close();

    const restoredPath = join(path, "..", "restored.db");
    restoreSnapshot(snapshot, restoredPath, 100);
    const restored = openSqliteStorage(restoredPath, compressed);
    expect((await restored.get(KEY("sim-0")))?.value).toBe(values[2]!);
    expect(storedValues(restoredPath).get(4)).toBeInstanceOf(Uint8Array);
    await restored.close();
    const db = openSqliteDatabase(restoredPath);
    expect(db.prepare("PRAGMA user_version").get()).toEqual({ user_version: FORMAT_VERSION });
    db.close();
  }));
