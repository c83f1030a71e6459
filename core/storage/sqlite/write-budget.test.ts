import { expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openSqliteDatabase } from "../../runtime/sqlite.ts";
import { openSqliteStorage } from "./mod.ts";
import { PAGE_SIZE } from "./schema.ts";
import { pageOwners, walFrames } from "./testing.ts";

// Pins format 2's write budget (README "Storage format and flash writes"): a renewal rewrites the key's kv leaf
// and appends its value once to history, plus the pages allocating a history page takes; nothing else.
test("a Lease renewal commit writes its kv leaf and one history row, no revision counter, history index or pointer map", async () => {
  const dir = mkdtempSync(join(tmpdir(), "kubun-write-budget-"));
  try {
    const path = join(dir, "state.db");
    const storage = openSqliteStorage(path);
    const lease = "x".repeat(700);
    for (let i = 0; i < 200; i++) await storage.write({ op: "create", key: `/registry/configmaps/default/cm-${i}`, value: lease });
    await storage.write({ op: "create", key: "/registry/leases/kube-node-lease/sim-0", value: lease });
    const side = openSqliteDatabase(path);
    side.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    const renewals = 50;
    for (let i = 0; i < renewals; i++) {
      await storage.write({ op: "update", key: "/registry/leases/kube-node-lease/sim-0", value: lease + i, expectedRevision: 0 });
    }
    const { pages, commits, pageSize } = walFrames(path);
    const owners = pageOwners(side);
    side.close();
    await storage.close();

    expect(pageSize).toBe(PAGE_SIZE);
    expect(commits).toBe(renewals);
    const written = new Set(pages.map((page) => owners.get(page) ?? "pointer map or free page"));
    expect([...written].sort()).toEqual(["history", "history internal", "kv", "page 1 (header)"]);
    // kv leaf + history leaf every time; a new history page's parent and page 1 (the page count); a rare split.
    expect(pages.length / commits).toBeLessThanOrEqual(4.5);
    // Format 1 wrote 5.65 frames of 4 KiB (23 KB) per renewal.
    expect((pages.length * (pageSize + 24)) / commits).toBeLessThan(6000);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
