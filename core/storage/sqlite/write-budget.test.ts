import { expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openSqliteDatabase } from "../../runtime/sqlite.ts";
import { openSqliteStorage } from "./mod.ts";
import { PAGE_SIZE } from "./schema.ts";
import { LEASE_PREFIX, leaseValue, pageOwners, walFrames, withDatabasePath } from "./testing.ts";

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

const TICK_LEASES = [
  { key: `${LEASE_PREFIX}kube-node-lease/sim-0`, value: (second: number) => leaseValue("sim-0", second) },
  { key: `${LEASE_PREFIX}kube-node-lease/sim-1`, value: (second: number) => leaseValue("sim-1", second) },
  { key: `${LEASE_PREFIX}kube-node-lease/sim-2`, value: (second: number) => leaseValue("sim-2", second) },
  {
    key: `${LEASE_PREFIX}kube-system/kube-apiserver-lphjr5z7h3imqn7sokpnsue3ha`,
    value: (second: number) => leaseValue("kube-apiserver-lphjr5z7h3imqn7sokpnsue3ha", second, true),
  },
];

/** WAL frames per commit of an idle `--simulated-nodes 3` tick: three node Leases and the identity Lease in one commit. */
async function framesPerTick(compressedKeyPrefixes: string[]): Promise<number> {
  return await withDatabasePath(async (path) => {
    const storage = openSqliteStorage(path, { compressedKeyPrefixes });
    for (const lease of TICK_LEASES) await storage.write({ op: "create", key: lease.key, value: lease.value(0) });
    const side = openSqliteDatabase(path);
    side.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    const ticks = 60;
    for (let tick = 1; tick <= ticks; tick++) {
      // Submitted together, as the renewal tick does, they share one group commit.
      await Promise.all(
        TICK_LEASES.map((lease) => storage.write({ op: "update", key: lease.key, value: lease.value(tick * 10), expectedRevision: 0 })),
      );
    }
    const { pages, commits } = walFrames(path);
    side.close();
    await storage.close();
    expect(commits).toBe(ticks);
    return pages.length / commits;
  });
}

// README "Storage format and flash writes": four ~800 B history rows took a history leaf each (with the kv leaf, the
// history parent and page 1: 7 frames); deflated with the Lease dictionary (stored-value.ts) a tick's rows take about
// four fifths of a leaf: the kv leaf, one or two history leaves, the parent and page 1 (5 frames).
test("a renewal tick of four Leases writes fewer WAL frames with the Leases deflated than as text", async () => {
  const text = await framesPerTick([]);
  const deflated = await framesPerTick([LEASE_PREFIX]);
  console.log(`WAL frames per tick of four Lease renewals: text ${text.toFixed(2)}, deflated ${deflated.toFixed(2)}`);
  expect(text).toBeGreaterThanOrEqual(6.5);
  expect(deflated).toBeLessThanOrEqual(5.5);
});
