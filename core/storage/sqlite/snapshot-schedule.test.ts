import { expect, test } from "bun:test";
import { mkdtempSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openSqliteStorage } from "./mod.ts";
import { pruneSnapshots, scheduleSnapshots } from "./snapshot-schedule.ts";
import { snapshotStatus } from "./snapshot.ts";

test("pruneSnapshots() keeps the newest scheduled snapshots and leaves other files alone", () => {
  const dir = mkdtempSync(join(tmpdir(), "kubun-prune-"));
  for (const name of ["kubun-snapshot-100.db", "kubun-snapshot-300.db", "kubun-snapshot-200.db", "manual.db"]) {
    writeFileSync(join(dir, name), "");
  }
  expect(pruneSnapshots(dir, 2)).toEqual(["kubun-snapshot-100.db"]);
  expect(readdirSync(dir).sort()).toEqual(["kubun-snapshot-200.db", "kubun-snapshot-300.db", "manual.db"]);
});

test("scheduleSnapshots() snapshots on its schedule (@every) and keeps `retention` of them, owner-only", async () => {
  const dir = mkdtempSync(join(tmpdir(), "kubun-schedule-"));
  const dbPath = join(dir, "kubun.db");
  const storage = openSqliteStorage(dbPath);
  await storage.write({ op: "create", key: "/core/configmaps/default/a", value: "{}" });
  const lines: string[] = [];
  const snapshots = scheduleSnapshots(dbPath, {
    schedule: "@every 1s",
    retention: 2,
    dir: join(dir, "snapshots"),
    log: (line) => lines.push(line),
  });
  // Three snapshots taken, the oldest pruned (bounded wait: a loaded machine may fire timers late).
  for (let i = 0; i < 100 && lines.filter((line) => line.includes("saved snapshot")).length < 3; i++) await Bun.sleep(100);
  snapshots.stop();
  await storage.close();
  const files = readdirSync(join(dir, "snapshots"));
  expect(files).toHaveLength(2);
  for (const file of files) {
    expect(statSync(join(dir, "snapshots", file)).mode & 0o777).toBe(0o600);
    expect(snapshotStatus(join(dir, "snapshots", file))).toMatchObject({ revision: 1, keys: 1 });
  }
  expect(lines.some((line) => line.includes("removed kubun-snapshot-"))).toBe(true);
});

test("scheduleSnapshots() refuses a schedule that does not parse, and an empty one disables it", () => {
  const dir = mkdtempSync(join(tmpdir(), "kubun-schedule-"));
  expect(() => scheduleSnapshots(join(dir, "kubun.db"), { schedule: "every day", retention: 1, dir, log: () => {} })).toThrow(
    'invalid snapshot schedule "every day"',
  );
  scheduleSnapshots(join(dir, "kubun.db"), { schedule: "", retention: 1, dir: join(dir, "none"), log: () => {} }).stop();
  expect(readdirSync(dir)).toEqual([]);
});
