/**
 * `kubun snapshot save` answers only once what it copied is on disk: the copy, and the live WAL it copied from. A
 * serving kubun commits at synchronous=NORMAL and syncs each batch afterwards (core/storage/sqlite/wal-sync.ts), so
 * without the save's own sync of the WAL a power loss could leave the server below a snapshot already taken of it.
 * The snapshot is made as FILE.part and renamed only once synced, then its directory synced, as etcd's
 * snapshot.SaveWithVersion renames `<path>.part`. Seen from the system calls the binary makes (strace, Debian's package).
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

/** Runs dist/kubun with `args` under strace, tracing opens, syncs and renames; answers the trace. */
async function traced(args: string[]): Promise<string> {
  const traceFile = join(dir, `trace-${args[1]}.txt`);
  await promisify(execFile)("strace", [
    "-f",
    "-qq",
    "-e",
    "trace=openat,fsync,fdatasync,rename,renameat,renameat2",
    "-o",
    traceFile,
    KUBUN_BINARY,
    ...args,
  ]);
  return await readFile(traceFile, "utf8");
}

/**
 * In the order of the trace: the paths fsync'd or fdatasync'd (by the path their descriptor was opened as), and
 * "rename FROM -> TO" for each rename.
 */
function syscalls(trace: string): { synced: (string | undefined)[]; events: string[] } {
  const opened = new Map<number, string>();
  const synced: (string | undefined)[] = [];
  const events: string[] = [];
  for (const line of trace.split("\n")) {
    const open = /openat\(AT_FDCWD, "([^"]+)", [^)]*\) = (\d+)$/.exec(line);
    if (open) opened.set(Number(open[2]), open[1]!);
    const sync = /f(?:data)?sync\((\d+)\) += 0$/.exec(line);
    if (sync) {
      synced.push(opened.get(Number(sync[1])));
      events.push(`sync ${opened.get(Number(sync[1]))}`);
    }
    const rename = /rename(?:at2?)?\((?:AT_FDCWD, )?"([^"]+)", (?:AT_FDCWD, )?"([^"]+)"(?:, \w+)?\) = 0$/.exec(line);
    if (rename) events.push(`rename ${rename[1]} -> ${rename[2]}`);
  }
  return { synced, events };
}

test("snapshot save syncs the live WAL after copying and FILE.part, renames it to FILE, then syncs the directory, while the server commits", async () => {
  const writers = startConfigMapWriters(server, 4);
  await Bun.sleep(300);
  const file = join(dir, "snap.db");
  let trace: string;
  try {
    trace = await traced(["snapshot", "save", file, "--data-dir", server.dataDir]);
  } finally {
    await writers.stop();
  }
  const { events } = syscalls(trace);
  // After SQLite's own syncs of FILE.part (its checkpoint and journal mode change): the live WAL, FILE.part, the
  // rename, the directory; then only the status's reads.
  expect(events.slice(-4)).toEqual([
    `sync ${join(server.dataDir, "kubun.db-wal")}`,
    `sync ${file}.part`,
    `rename ${file}.part -> ${file}`,
    `sync ${dir}`,
  ]);
});

test("snapshot restore syncs the restored database, then its entry in the new data directory and the directory's in its parent", async () => {
  const file = join(dir, "restore-source.db");
  await traced(["snapshot", "save", file, "--data-dir", server.dataDir]);
  const restoredDir = join(dir, "restored");
  const { synced: syncedPaths } = syscalls(await traced(["snapshot", "restore", file, "--data-dir", restoredDir]));
  const database = join(restoredDir, "kubun.db");
  // The bytes written before SQLite opens the file, then SQLite's own commit, then the two directories.
  expect(syncedPaths[0]).toBe(database);
  expect(syncedPaths.slice(-2)).toEqual([restoredDir, dir]);
});
