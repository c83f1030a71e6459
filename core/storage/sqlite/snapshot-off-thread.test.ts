import { expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setImmediate } from "node:timers";
import { openSqliteStorage } from "./mod.ts";
import { saveSnapshotOffThread } from "./snapshot-off-thread.ts";
import { snapshotStatus } from "./snapshot.ts";
import { holdRollbackStore, withDatabasePath } from "./testing.ts";
import { copyLiveFiles } from "./live-copy.ts";

/** What another process reading the database at `path` gets, without waiting for a lock. */
function readFromAnotherProcess(path: string): string {
  const script = `const { Database } = require("bun:sqlite");
    const db = new Database(${JSON.stringify(path)});
    db.run("PRAGMA busy_timeout = 0");
    try { console.log("read " + db.query("SELECT count(*) AS n FROM kv").get().n); } catch (e) { console.log(e.message); }`;
  return Bun.spawnSync([process.execPath, "-e", script]).stdout.toString().trim();
}

test("a scheduled snapshot's SQLite work runs off the event loop: the loop keeps turning while the worker waits for a lock", async () => {
  const dir = mkdtempSync(join(tmpdir(), "kubun-snapshot-thread-"));
  const dbPath = join(dir, "kubun.db");
  // The store's tables in a rollback-journal database (copied by SQLite under its read lock, snapshot.ts
  // finishSnapshot), held exclusively by this thread's connection: the copy cannot start until this thread lets go.
  // Were the copy on this thread, the loop below would never run and the copy would fail with "database is locked".
  const holder = holdRollbackStore(dbPath);
  let finished = false;
  const snapshot = saveSnapshotOffThread(dbPath, join(dir, "snapshot.db")).finally(() => (finished = true));
  let turns = 0;
  while (turns < 50) {
    await new Promise((resolve) => setImmediate(resolve));
    turns++;
  }
  expect(finished).toBe(false);
  holder.exec("COMMIT");
  holder.close();
  expect(await snapshot).toMatchObject({ revision: 1, keys: 1 });
  expect(snapshotStatus(join(dir, "snapshot.db")).keys).toBe(1);
});

test("a snapshot that fails in the worker rejects with SQLite's reason", async () => {
  const dir = mkdtempSync(join(tmpdir(), "kubun-snapshot-thread-"));
  await expect(saveSnapshotOffThread(join(dir, "missing.db"), join(dir, "s.db"))).rejects.toThrow(
    `no database at ${join(dir, "missing.db")}`,
  );
});

test("a server's own snapshot leaves its exclusive lock in place: another process still cannot read the database (live-copy.ts heldDescriptor)", async () => {
  await withDatabasePath(async (path) => {
    const store = openSqliteStorage(path, { exclusive: true });
    await store.write({ op: "create", key: "/core/configmaps/default/a", value: "{}" });
    expect(readFromAnotherProcess(path)).toBe("database is locked");
    for (const name of ["first.db", "second.db"]) {
      expect(await saveSnapshotOffThread(path, join(path, "..", name))).toMatchObject({ revision: 1, keys: 1 });
      expect(readFromAnotherProcess(path)).toBe("database is locked");
    }
    await store.close();
    expect(readFromAnotherProcess(path)).toBe("read 1");
  });
});

test("the held descriptor is read in chunks with a turn of the event loop between them (live-copy.ts copyFromDescriptor)", async () => {
  await withDatabasePath(async (path) => {
    const store = openSqliteStorage(path, { exclusive: true });
    await Promise.all(Array.from({ length: 40 }, (_, i) => store.write({ op: "create", key: `/k/${i}`, value: "x".repeat(100_000) })));
    await store.close();
    const reopened = openSqliteStorage(path, { exclusive: true });
    let turns = 0;
    let copying = true;
    const counting = (async () => {
      while (copying) {
        await new Promise((resolve) => setImmediate(resolve));
        turns++;
      }
    })();
    const copy = join(path, "..", "copy.db");
    // Counted when the database file's copy is done, before the WAL's (whose asynchronous copy turns the loop too).
    let turnsDuringCopy = 0;
    const copied = await copyLiveFiles(path, copy, { writerProcess: true, betweenCopies: () => void (turnsDuringCopy = turns) });
    copying = false;
    await counting;
    expect(copied).toBe(true);
    // Over 4 MB in chunks of 256 KiB.
    expect(turnsDuringCopy).toBeGreaterThanOrEqual(8);
    expect(readFromAnotherProcess(path)).toBe("database is locked");
    await reopened.close();
  });
});
