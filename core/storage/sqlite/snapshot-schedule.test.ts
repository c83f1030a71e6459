import { expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setImmediate } from "node:timers";
import { openSqliteStorage } from "./mod.ts";
import { pruneSnapshots, scheduleSnapshots } from "./snapshot-schedule.ts";
import { snapshotStatus } from "./snapshot.ts";
import { holdRollbackStore } from "./testing.ts";

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

test("scheduleSnapshots() removes what interrupted snapshots left (.part files, private copy directories) when it starts, and nothing else", () => {
  const dir = mkdtempSync(join(tmpdir(), "kubun-schedule-"));
  const leftovers = ["kubun-snapshot-100.db.part", "kubun-snapshot-100.db.part-wal", "kubun-snapshot-100.db.part-journal"];
  for (const name of [...leftovers, "kubun-snapshot-50.db", "manual.db.part", "notes.txt"]) writeFileSync(join(dir, name), "");
  mkdirSync(join(dir, ".kubun-copy-Ab12Cd"));
  writeFileSync(join(dir, ".kubun-copy-Ab12Cd", "kubun.db"), "");
  const lines: string[] = [];
  const snapshots = scheduleSnapshots(join(dir, "kubun.db"), { schedule: "@yearly", retention: 1, dir, log: (line) => lines.push(line) });
  void snapshots.stop();
  expect(readdirSync(dir).sort()).toEqual(["kubun-snapshot-50.db", "manual.db.part", "notes.txt"]);
  expect(lines).toEqual([`removed unfinished snapshot files ${[...leftovers.sort(), ".kubun-copy-Ab12Cd"].join(", ")} from ${dir}`]);
});

test("stop() resolves only once the snapshot in progress is done, which then is complete", async () => {
  const dir = mkdtempSync(join(tmpdir(), "kubun-schedule-"));
  const dbPath = join(dir, "kubun.db");
  // A rollback-journal database held exclusively by this thread: the worker's copy waits until it is let go.
  const holder = holdRollbackStore(dbPath);
  const snapshotDir = join(dir, "snapshots");
  const snapshots = scheduleSnapshots(dbPath, { schedule: "@every 1s", retention: 5, dir: snapshotDir, log: () => {} });
  // Bounded wait for the first activation: its FILE.part exists while the worker waits.
  const parts = () => readdirSync(snapshotDir).filter((name) => name.endsWith(".db.part"));
  for (let i = 0; i < 100 && parts().length === 0; i++) await Bun.sleep(100);
  const [part] = parts();
  expect(part).toBeDefined();
  let stopped = false;
  const stopping = snapshots.stop().then(() => (stopped = true));
  for (let turn = 0; turn < 50; turn++) await new Promise((resolve) => setImmediate(resolve));
  expect(stopped).toBe(false);
  holder.exec("COMMIT");
  holder.close();
  await stopping;
  const file = join(snapshotDir, part!.slice(0, -".part".length));
  expect(readdirSync(snapshotDir)).toEqual([part!.slice(0, -".part".length)]);
  expect(existsSync(file)).toBe(true);
  expect(snapshotStatus(file)).toMatchObject({ revision: 1, keys: 1 });
});
