import { expect, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { openSqliteDatabase } from "../../runtime/sqlite.ts";
import { openSqliteStorage } from "./mod.ts";
import { saveSnapshot, snapshotStatus } from "./snapshot.ts";
import { leaveMostlyFree, withDatabasePath } from "./testing.ts";

const create = (key: string, value = `value of ${key}`) => ({ op: "create", key, value }) as const;

/** Offsets 18 and 19 of a database header: 1 for a rollback journal, 2 for WAL mode. */
const formatVersions = (file: string) => [...readFileSync(file).subarray(18, 20)];

test("a snapshot whose copy fails leaves no file behind, neither the snapshot nor its .part files, so retention counts only snapshots", async () => {
  const dir = mkdtempSync(join(tmpdir(), "kubun-snapshot-"));
  try {
    const dbPath = join(dir, "kubun.db");
    writeFileSync(dbPath, "this is not a SQLite database, but long enough to be read as one".repeat(100));
    const file = join(dir, "kubun-snapshot-1.db");
    await expect(saveSnapshot(dbPath, file)).rejects.toThrow("file is not a database");
    expect(readdirSync(dir)).toEqual(["kubun.db"]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a snapshot that fails after copying the live files removes FILE.part and FILE.part-wal (snapshot.ts saveSnapshot)", async () => {
  await withDatabasePath(async (path) => {
    const store = openSqliteStorage(path, { exclusive: true });
    await store.write(create("/k/1"));
    const file = join(dirname(path), "snapshot.db");
    const copied: string[] = [];
    const finish = () => {
      copied.push(...readdirSync(dirname(path)).filter((name) => name.startsWith("snapshot.db")));
      return Promise.reject(new Error("disk full"));
    };
    await expect(saveSnapshot(path, file, { finish })).rejects.toThrow("disk full");
    expect(copied.sort()).toEqual(["snapshot.db.part", "snapshot.db.part-wal"]);
    expect(readdirSync(dirname(path)).filter((name) => name.startsWith("snapshot.db"))).toEqual([]);
    await store.close();
  });
});

test("a snapshot of a database held exclusively is written as FILE.part, recovered, made a standalone rollback-mode file and renamed: no -wal, -shm, .part or private copy is left", async () => {
  await withDatabasePath(async (path) => {
    const store = openSqliteStorage(path, { exclusive: true });
    await Promise.all(Array.from({ length: 50 }, (_, i) => store.write(create(`/k/${i}`))));
    const file = join(dirname(path), "snapshot.db");
    expect(await saveSnapshot(path, file)).toMatchObject({ revision: 50, keys: 50 });
    expect(readdirSync(dirname(path)).sort()).toEqual(["kubun.db", "kubun.db-wal", "snapshot.db"]);
    expect(formatVersions(file)).toEqual([1, 1]);
    const snapshot = openSqliteDatabase(file);
    expect(snapshot.prepare("PRAGMA journal_mode").get()).toEqual({ journal_mode: "delete" });
    expect(snapshot.prepare("PRAGMA integrity_check").get()).toEqual({ integrity_check: "ok" });
    snapshot.close();
    await expect(saveSnapshot(path, file)).rejects.toThrow(`${file} already exists`);
    await store.close();
  });
});

test("a database rewritten in rollback mode between the copies (schema.ts rewriteIfAlone, no WAL) is noticed by its file change counter and copied again (live-copy.ts)", async () => {
  await withDatabasePath(async (path) => {
    // A WAL-mode file with many free pages and no -wal (its last store closed), which the next store rewrites at open.
    await leaveMostlyFree(path);
    expect(formatVersions(path)).toEqual([2, 2]);
    expect(existsSync(`${path}-wal`)).toBe(false);
    const attempts: number[] = [];
    let rewrittenAt = 0;
    const file = join(dirname(path), "snapshot.db");
    const status = await saveSnapshot(path, file, {
      // Out of WAL mode, VACUUM, back into it, one more write, closed: the file is back in WAL mode with no -wal.
      betweenCopies: async (attempt) => {
        attempts.push(attempt);
        if (attempt > 1) return;
        const rewriter = openSqliteStorage(path, { exclusive: true });
        rewrittenAt = (await rewriter.write(create("/b/after-rewrite"))).modRevision;
        await rewriter.close();
        expect(existsSync(`${path}-wal`)).toBe(false);
      },
    });
    expect(attempts).toEqual([1, 2]);
    expect(status).toMatchObject({ revision: rewrittenAt, keys: 21 });
    expect(snapshotStatus(file).revision).toBe(rewrittenAt);
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
