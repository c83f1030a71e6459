/**
 * The store opened `exclusive` (SQLite's locking_mode=EXCLUSIVE, schema.ts initializeSchema): the WAL index lives in
 * heap memory, so no `-shm` file is created or written, also when the file is reopened in WAL mode; and no other
 * connection can read or commit while it is open, which is why the store polls for no foreign commits.
 */
import { expect, test } from "bun:test";
import { existsSync, statSync } from "node:fs";
import { openSqliteDatabase } from "../../runtime/sqlite.ts";
import { openSqliteStorage } from "./mod.ts";
import { leaveMostlyFree, withDatabasePath } from "./testing.ts";

const create = (key: string, value = "v") => ({ op: "create", key, value }) as const;

test("an exclusive store writes no -shm file, neither when it creates the database nor when it reopens one in WAL mode", async () => {
  await withDatabasePath(async (path) => {
    const created = openSqliteStorage(path, { exclusive: true });
    await created.write(create("/a/1"));
    expect(existsSync(`${path}-wal`)).toBe(true);
    expect(existsSync(`${path}-shm`)).toBe(false);
    await created.close();

    // A database left in WAL mode by a shared connection: the restart case, where a late pragma would map -shm.
    const shared = openSqliteStorage(path);
    await shared.write(create("/a/2"));
    await shared.close();
    expect(existsSync(`${path}-shm`)).toBe(false);
    const reopened = openSqliteStorage(path, { exclusive: true });
    await reopened.write(create("/a/3"));
    expect((await reopened.range("/a/")).items.map((kv) => kv.key)).toEqual(["/a/1", "/a/2", "/a/3"]);
    expect(existsSync(`${path}-shm`)).toBe(false);
    await reopened.close();
  });
});

test("an exclusive store rewrites a mostly free file at open (schema.ts rewriteIfAlone) and returns to WAL without -shm", async () => {
  await withDatabasePath(async (path) => {
    const value = await leaveMostlyFree(path, { synchronous: "NORMAL" });
    const sizeBefore = statSync(path).size;
    const reopened = openSqliteStorage(path, { exclusive: true });
    expect(statSync(path).size).toBeLessThan(sizeBefore / 5);
    await reopened.write(create("/b/1"));
    expect((await reopened.get("/a/7"))?.value).toBe(value);
    expect(existsSync(`${path}-shm`)).toBe(false);
    await reopened.close();
  });
});

test("the locking mode must come before the first read of a WAL database: set after it, SQLite maps -shm", async () => {
  await withDatabasePath(async (path) => {
    const store = openSqliteStorage(path);
    await store.write(create("/a/1"));
    await store.close();
    const late = openSqliteDatabase(path);
    late.prepare("SELECT count(*) AS n FROM kv").get();
    late.exec("PRAGMA locking_mode = EXCLUSIVE");
    expect(existsSync(`${path}-shm`)).toBe(true);
    late.close();
  });
});

// Each refused opener waits out the store's busy_timeout (5 s) before "database is locked".
test("while an exclusive store is open another connection can neither read nor open the store, in either mode", async () => {
  await withDatabasePath(async (path) => {
    const store = openSqliteStorage(path, { exclusive: true });
    await store.write(create("/a/1"));
    const reader = openSqliteDatabase(path);
    try {
      reader.exec("PRAGMA busy_timeout = 0");
      expect(() => reader.prepare("SELECT count(*) AS n FROM kv").get()).toThrow("database is locked");
    } finally {
      reader.close();
    }
    for (const exclusive of [false, true]) {
      expect(() => openSqliteStorage(path, { exclusive })).toThrow("database is locked");
    }
    // The store itself is untouched by the refused openers.
    expect((await store.write(create("/a/2"))).modRevision).toBe(2);
    await store.close();
  });
}, 30_000);
