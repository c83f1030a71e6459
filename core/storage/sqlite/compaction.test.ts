import { expect, test } from "bun:test";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openSqliteDatabase } from "../../runtime/sqlite.ts";
import { openSqliteStorage } from "./mod.ts";

test("compact() purges history, truncates the WAL and returns free pages", async () => {
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
    expect(statSync(`${path}-wal`).size).toBe(0);
    expect(statSync(path).size).toBeLessThan(sizeBefore / 10);
    await storage.close();

    const db = openSqliteDatabase(path);
    // Only the 50 live keys' values stay: every superseded revision is gone.
    expect(db.prepare("SELECT COUNT(*) AS n FROM history").get()).toEqual({ n: 50 });
    expect(db.prepare("PRAGMA freelist_count").get()).toEqual({ freelist_count: 0 });
    db.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
