import { expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setImmediate } from "node:timers";
import { openSqliteDatabase } from "../../runtime/sqlite.ts";
import { saveSnapshotOffThread } from "./snapshot-off-thread.ts";
import { snapshotStatus } from "./snapshot.ts";

test("a scheduled snapshot's VACUUM INTO runs off the event loop: the loop keeps turning while the copy waits", async () => {
  const dir = mkdtempSync(join(tmpdir(), "kubun-snapshot-thread-"));
  const dbPath = join(dir, "kubun.db");
  // The store's tables in a rollback-journal database, held exclusively by this thread's connection: the copy
  // cannot start until this thread lets go. Were the copy on this thread, the loop below would never run and
  // the copy would fail with "database is locked".
  const holder = openSqliteDatabase(dbPath);
  holder.exec("CREATE TABLE meta (id INTEGER PRIMARY KEY, current_rev INTEGER, compacted_rev INTEGER)");
  holder.exec("CREATE TABLE kv (key TEXT PRIMARY KEY, value TEXT)");
  holder.exec("CREATE TABLE history (rev INTEGER PRIMARY KEY)");
  holder.exec("INSERT INTO meta VALUES (1, 1, 0); INSERT INTO kv VALUES ('/core/configmaps/default/a', '{}')");
  holder.exec("BEGIN EXCLUSIVE");
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
