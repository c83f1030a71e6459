/**
 * Scheduled snapshots with retention, as k3s's `--etcd-snapshot-schedule-cron` / `--etcd-snapshot-retention` /
 * `--etcd-snapshot-dir`: at each activation of the cron schedule (robfig/cron syntax, core/api/cron.ts) the live
 * database is copied with saveSnapshot to `kubun-snapshot-<unix seconds>.db` on a worker thread (the copy reads
 * the whole database), and only the newest `retention` such files are kept. What an interrupted snapshot left in
 * the directory (its `.part` files, or an older kubun's private copy directories) is removed when the schedule
 * starts; stopping waits for a snapshot in progress, so a stopping server does not leave one half-written.
 */
import { mkdirSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { type CronSchedule, nextScheduleTime, parseCronSchedule } from "../../api/cron.ts";
import { removeStaleCopies } from "./live-copy.ts";
import { saveSnapshotOffThread } from "./snapshot-off-thread.ts";

export interface SnapshotScheduleOptions {
  /** A cron schedule; "" disables scheduled snapshots. */
  schedule: string;
  retention: number;
  dir: string;
  log: (line: string) => void;
  now?: () => number;
}

const SNAPSHOT_NAME = /^kubun-snapshot-(\d+)\.db$/;
/** A scheduled snapshot's files while it is made (snapshot.ts saveSnapshot): `FILE.part` and SQLite's companions. */
const SNAPSHOT_PART_NAME = /^kubun-snapshot-\d+\.db\.part/;
/** setTimeout's longest delay; a later activation is waited for in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Deletes all but the newest `retention` scheduled snapshots in `dir`. */
export function pruneSnapshots(dir: string, retention: number): string[] {
  const snapshots = readdirSync(dir)
    .map((name) => ({ name, time: Number(SNAPSHOT_NAME.exec(name)?.[1] ?? NaN) }))
    .filter(({ time }) => !Number.isNaN(time))
    .sort((a, b) => b.time - a.time);
  const removed = snapshots.slice(Math.max(retention, 0)).map(({ name }) => name);
  for (const name of removed) rmSync(join(dir, name), { force: true });
  return removed;
}

/** Removes the files of scheduled snapshots in `dir` that were never finished (a process killed meanwhile). */
export function removeUnfinishedSnapshots(dir: string): string[] {
  const parts = readdirSync(dir).filter((name) => SNAPSHOT_PART_NAME.test(name)).sort();
  for (const name of parts) rmSync(join(dir, name), { force: true });
  return [...parts, ...removeStaleCopies(dir)];
}

export interface ScheduledSnapshots {
  /** No more snapshots; resolves once those in progress are done. */
  stop(): Promise<void>;
}

/** Starts taking snapshots of the database at `dbPath`; throws at once for a schedule that does not parse. */
export function scheduleSnapshots(dbPath: string, options: SnapshotScheduleOptions): ScheduledSnapshots {
  if (options.schedule === "") return { stop: () => Promise.resolve() };
  let schedule: CronSchedule;
  try {
    schedule = parseCronSchedule(options.schedule);
  } catch (error) {
    throw new Error(`invalid snapshot schedule ${JSON.stringify(options.schedule)}: ${(error as Error).message}`, { cause: error });
  }
  const now = options.now ?? Date.now;
  mkdirSync(options.dir, { recursive: true, mode: 0o700 });
  const unfinished = removeUnfinishedSnapshots(options.dir);
  if (unfinished.length > 0) options.log(`removed unfinished snapshot files ${unfinished.join(", ")} from ${options.dir}`);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const inProgress = new Set<Promise<void>>();
  const take = async () => {
    const file = join(options.dir, `kubun-snapshot-${Math.floor(now() / 1000)}.db`);
    try {
      const status = await saveSnapshotOffThread(dbPath, file);
      const removed = pruneSnapshots(options.dir, options.retention);
      options.log(
        `saved snapshot ${file} at revision ${status.revision}${removed.length > 0 ? `, removed ${removed.join(", ")}` : ""}`,
      );
    } catch (error) {
      options.log(`scheduled snapshot ${file} failed: ${(error as Error).message}`);
    }
  };
  const arm = (after: number) => {
    const next = nextScheduleTime(schedule, after);
    if (next === null) return;
    const wait = next - now();
    timer = setTimeout(() => {
      if (wait <= MAX_TIMER_MS) {
        const taking = take().finally(() => inProgress.delete(taking));
        inProgress.add(taking);
      }
      arm(wait <= MAX_TIMER_MS ? next : now());
    }, Math.max(0, Math.min(wait, MAX_TIMER_MS)));
    // Snapshots never keep a stopping process alive.
    (timer as { unref?: () => void }).unref?.();
  };
  arm(now());
  return {
    stop: async () => {
      clearTimeout(timer);
      await Promise.all(inProgress);
    },
  };
}
