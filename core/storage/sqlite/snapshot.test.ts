import { expect, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { openSqliteDatabase } from "../../runtime/sqlite.ts";
import { openSqliteStorage } from "./mod.ts";
import { saveSnapshot } from "./snapshot.ts";
import { withDatabasePath } from "./testing.ts";

const create = (key: string) => ({ op: "create", key, value: `value of ${key}` }) as const;

test("a snapshot whose copy fails leaves no file behind, so retention counts only snapshots", async () => {
  const dir = mkdtempSync(join(tmpdir(), "kubun-snapshot-"));
  try {
    const dbPath = join(dir, "kubun.db");
    writeFileSync(dbPath, "this is not a SQLite database, but long enough to be read as one".repeat(100));
    const file = join(dir, "kubun-snapshot-1.db");
    await expect(saveSnapshot(dbPath, file)).rejects.toThrow("file is not a database");
    expect(existsSync(file)).toBe(false);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a snapshot of a database held exclusively copies its file and WAL without a lock, leaving no private copy behind", async () => {
  await withDatabasePath(async (path) => {
    const store = openSqliteStorage(path, { exclusive: true });
    await Promise.all(Array.from({ length: 50 }, (_, i) => store.write(create(`/k/${i}`))));
    const file = join(dirname(path), "snapshot.db");
    expect(await saveSnapshot(path, file)).toMatchObject({ revision: 50, keys: 50 });
    expect(readdirSync(dirname(path)).filter((name) => name.startsWith(".kubun-copy-"))).toEqual([]);
    await store.close();
  });
});

test("a WAL restarted between the database copy and the WAL copy is noticed by its header and the copy retaken (live-copy.ts)", async () => {
  await withDatabasePath(async (path) => {
    // Shared mode, so that this test's own connection can checkpoint the live file.
    const store = openSqliteStorage(path);
    const checkpointer = openSqliteDatabase(path);
    checkpointer.exec("PRAGMA busy_timeout = 5000");
    // All in the WAL: the database file holds only the empty tables.
    await Promise.all(Array.from({ length: 200 }, (_, i) => store.write(create(`/k/${i}`))));
    const attempts: number[] = [];
    const file = join(dirname(path), "snapshot.db");
    const status = await saveSnapshot(path, file, {
      // After the old database file was copied: everything moves into the file, the WAL restarts with one commit.
      betweenCopies: async (attempt) => {
        attempts.push(attempt);
        if (attempt > 1) return;
        checkpointer.exec("PRAGMA wal_checkpoint(TRUNCATE)");
        await store.write(create("/k/after-restart"));
      },
    });
    expect(attempts).toEqual([1, 2]);
    expect(status).toMatchObject({ revision: 201, keys: 201 });
    const copy = openSqliteDatabase(file);
    expect(copy.prepare("PRAGMA integrity_check").get()).toEqual({ integrity_check: "ok" });
    expect(copy.prepare("SELECT count(*) AS n FROM kv JOIN history ON history.rev = kv.mod_rev").get()).toEqual({ n: 201 });
    copy.close();
    checkpointer.close();
    await store.close();
  });
});
