/**
 * `kubun snapshot save` answers only once what it copied is on disk: the copy, and the live WAL it copied from. A
 * serving kubun commits at synchronous=NORMAL and syncs each batch afterwards (core/storage/sqlite/wal-sync.ts), so
 * without the save's own sync of the WAL a power loss could leave the server below a snapshot already taken of it.
 * Seen from the system calls the binary makes (strace, Debian's package).
 */
import { afterAll, expect, test } from "bun:test";
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { KUBUN_BINARY, startServer } from "./harness.ts";
import { startConfigMapWriters } from "./_writers.ts";

const dir = await mkdtemp(join(tmpdir(), "kubun-snapshot-sync-"));
const server = await startServer();
afterAll(async () => {
  await server.stop();
  await rm(dir, { recursive: true, force: true });
});

/** Runs dist/kubun with `args` under strace, tracing opens and syncs; answers the trace. */
async function traced(args: string[]): Promise<string> {
  const traceFile = join(dir, `trace-${args[1]}.txt`);
  await promisify(execFile)("strace", ["-f", "-qq", "-e", "trace=openat,fsync,fdatasync", "-o", traceFile, KUBUN_BINARY, ...args]);
  return await readFile(traceFile, "utf8");
}

/** The descriptors each path was opened as, and the descriptors fdatasync'd, in the order of the trace. */
function syscalls(trace: string): { opened: Map<number, string>; synced: { fd: number; path: string | undefined }[] } {
  const opened = new Map<number, string>();
  const synced: { fd: number; path: string | undefined }[] = [];
  for (const line of trace.split("\n")) {
    const open = /openat\(AT_FDCWD, "([^"]+)", [^)]*\) = (\d+)$/.exec(line);
    if (open) opened.set(Number(open[2]), open[1]!);
    const sync = /f(?:data)?sync\((\d+)\) += 0$/.exec(line);
    if (sync) synced.push({ fd: Number(sync[1]), path: opened.get(Number(sync[1])) });
  }
  return { opened, synced };
}

test("snapshot save syncs the copy and the live WAL after copying, while the server commits", async () => {
  const writers = startConfigMapWriters(server, 4);
  await Bun.sleep(300);
  const file = join(dir, "snap.db");
  let trace: string;
  try {
    trace = await traced(["snapshot", "save", file, "--data-dir", server.dataDir]);
  } finally {
    await writers.stop();
  }
  const { synced } = syscalls(trace);
  const syncedPaths = synced.map((sync) => sync.path);
  expect(syncedPaths).toContain(join(server.dataDir, "kubun.db-wal"));
  expect(syncedPaths).toContain(file);
  // The WAL's sync comes after the copy was written and synced by SQLite, if it syncs it at all: the last two.
  expect(syncedPaths.slice(-2)).toEqual([join(server.dataDir, "kubun.db-wal"), file]);
});

test("snapshot restore syncs the restored database, then its entry in the new data directory and the directory's in its parent", async () => {
  const file = join(dir, "restore-source.db");
  await traced(["snapshot", "save", file, "--data-dir", server.dataDir]);
  const restoredDir = join(dir, "restored");
  const { synced } = syscalls(await traced(["snapshot", "restore", file, "--data-dir", restoredDir]));
  const syncedPaths = synced.map((sync) => sync.path);
  const database = join(restoredDir, "kubun.db");
  // The bytes written before SQLite opens the file, then SQLite's own commit, then the two directories.
  expect(syncedPaths[0]).toBe(database);
  expect(syncedPaths.slice(-2)).toEqual([restoredDir, dir]);
});
