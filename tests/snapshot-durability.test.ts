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
  const traceFile = join(dir, "trace.txt");
  try {
    await promisify(execFile)("strace", [
      "-f",
      "-qq",
      "-e",
      "trace=openat,fsync,fdatasync",
      "-o",
      traceFile,
      KUBUN_BINARY,
      "snapshot",
      "save",
      file,
      "--data-dir",
      server.dataDir,
    ]);
  } finally {
    await writers.stop();
  }
  const { synced } = syscalls(await readFile(traceFile, "utf8"));
  const syncedPaths = synced.map((sync) => sync.path);
  expect(syncedPaths).toContain(join(server.dataDir, "kubun.db-wal"));
  expect(syncedPaths).toContain(file);
  // The WAL's sync comes after the copy was written and synced by SQLite, if it syncs it at all: the last two.
  expect(syncedPaths.slice(-2)).toEqual([join(server.dataDir, "kubun.db-wal"), file]);
});
