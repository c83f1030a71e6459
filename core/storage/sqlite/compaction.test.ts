import { expect, test } from "bun:test";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openSqliteDatabase } from "../../runtime/sqlite.ts";
import { openSqliteStorage } from "./mod.ts";
import { walFrames } from "./testing.ts";

test("compact() purges history and keeps the freed pages for new history; a reopen gives a large free share back", async () => {
  const dir = mkdtempSync(join(tmpdir(), "kubun-compact-"));
  try {
    const path = join(dir, "state.db");
    const storage = openSqliteStorage(path, { synchronous: "NORMAL" });
    const value = "x".repeat(2000);
    await Promise.all(Array.from({ length: 50 }, (_, i) => storage.write({ op: "create", key: `/a/${i}`, value })));
    for (let round = 0; round < 150; round++) {
      await Promise.all(
        Array.from({ length: 50 }, (_, i) => storage.write({ op: "update", key: `/a/${i}`, value: value + round, expectedRevision: 0 })),
      );
    }
    const sizeBefore = statSync(path).size + statSync(`${path}-wal`).size;
    await storage.compact(storage.currentRevision());
    expect(await storage.eventsSince("/a/", storage.currentRevision())).toEqual([]);
    const side = openSqliteDatabase(path);
    const freePages = () => Number(side.prepare("PRAGMA freelist_count").get()!.freelist_count);
    // Only the 50 live keys' values stay: every superseded revision is gone, its pages free in the file.
    expect(side.prepare("SELECT COUNT(*) AS n FROM history").get()).toEqual({ n: 50 });
    expect(freePages()).toBeGreaterThan(5000);
    side.close();
    await storage.close();

    // Opened again, before anything is served, the file is rewritten without them.
    const reopened = openSqliteStorage(path, { synchronous: "NORMAL" });
    expect(statSync(path).size + statSync(`${path}-wal`).size).toBeLessThan(sizeBefore / 10);
    expect((await reopened.get("/a/7"))?.value).toBe(value + 149);
    await reopened.close();
    const db = openSqliteDatabase(path);
    expect(db.prepare("PRAGMA freelist_count").get()).toEqual({ freelist_count: 0 });
    db.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a compaction with little to purge is one durable commit: the mark is saved with the purge (compactThrough)", async () => {
  const dir = mkdtempSync(join(tmpdir(), "kubun-compact-"));
  try {
    const path = join(dir, "state.db");
    const storage = openSqliteStorage(path);
    for (let i = 0; i < 20; i++) await storage.write({ op: "create", key: `/lease/${i % 4}-${i}`, value: "{}" });
    for (let i = 0; i < 20; i++) {
      await storage.write({ op: "update", key: `/lease/${i % 4}-${i}`, value: `{"i":${i}}`, expectedRevision: 0 });
    }
    const side = openSqliteDatabase(path);
    side.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    await storage.compact(storage.currentRevision() - 2);
    expect(walFrames(path).commits).toBe(1);
    side.close();
    await storage.close();

    // The mark and the purge both reached the file.
    const db = openSqliteDatabase(path);
    const meta = db.prepare("SELECT compacted_rev, purged_rev FROM meta").get()!;
    expect(meta).toEqual({ compacted_rev: 38, purged_rev: 38 });
    db.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
