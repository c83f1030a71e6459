import { expect, test } from "bun:test";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openSqliteDatabase } from "../../runtime/sqlite.ts";
import { openSqliteStorage } from "./mod.ts";

// compaction.test.ts shows a compaction that frees most of the file giving the pages back; this is the steady
// state in between, where returning pages would only move them around and grow the file again.
test("a compaction that frees a small share of the file keeps the free pages for new history and leaves the WAL", async () => {
  const dir = mkdtempSync(join(tmpdir(), "kubun-free-pages-"));
  try {
    const path = join(dir, "state.db");
    const storage = openSqliteStorage(path);
    const value = "x".repeat(700);
    for (let i = 0; i < 400; i++) await storage.write({ op: "create", key: `/live/${i}`, value });
    await storage.write({ op: "create", key: "/lease", value });
    const renew = async (times: number) => {
      for (let i = 0; i < times; i++) await storage.write({ op: "update", key: "/lease", value, expectedRevision: 0 });
    };
    await renew(40);
    const walBefore = statSync(`${path}-wal`).size;
    await storage.compact(storage.currentRevision());
    const side = openSqliteDatabase(path);
    const pages = () =>
      side.prepare("SELECT (SELECT freelist_count FROM pragma_freelist_count) AS free, page_count AS total FROM pragma_page_count").get()!;
    const afterCompaction = pages();
    expect(Number(afterCompaction.free)).toBeGreaterThan(30);
    expect(statSync(`${path}-wal`).size).toBeGreaterThanOrEqual(walBefore);

    // The next renewals take their pages from the free list instead of growing the file.
    await renew(20);
    const afterRenewals = pages();
    expect(Number(afterRenewals.free)).toBeLessThan(Number(afterCompaction.free));
    expect(afterRenewals.total).toBe(afterCompaction.total);
    side.close();
    await storage.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
