/**
 * The data directory's safety rules, with dist/kubun under umask 022: private file modes for the database and the
 * keys (the front-proxy client key acts as any user), etcd's warning for a directory open to others, and no
 * silent new cluster when certificates outlive the database.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { execFile } from "node:child_process";
import { chmod, mkdir, mkdtemp, rm, stat, truncate } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { KUBUN_BINARY } from "./harness.ts";
import { runKubun, startKubun } from "./_kubun-process.ts";

let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), "kubun-datadir-"));
});
afterAll(() => rm(scratch, { recursive: true, force: true }));

const modeOf = async (path: string) => ((await stat(path)).mode & 0o777).toString(8);

test("data directory: kubun.db, -wal and -shm and every key are 0600, the created directory 0700, whatever the umask", async () => {
  const dataDir = join(scratch, "fresh");
  // Shared, so that SQLite makes the -shm file too.
  const server = await startKubun(dataDir, ["--data-dir-shared"]);
  try {
    expect(await modeOf(dataDir)).toBe("700");
    for (
      const file of [
        "kubun.db",
        "kubun.db-wal",
        "kubun.db-shm",
        "ca.key",
        "apiserver.key",
        "admin.key",
        "front-proxy-ca.key",
        "front-proxy-client.key",
        "sa.key",
      ]
    ) {
      expect({ file, mode: await modeOf(join(dataDir, file)) }).toEqual({ file, mode: "600" });
    }
  } finally {
    expect(await server.stop()).toBe(0);
  }
});

test("data directory: a database left 0644 by an older start is made 0600", async () => {
  const dataDir = join(scratch, "fresh");
  await chmod(join(dataDir, "kubun.db"), 0o644);
  const server = await startKubun(dataDir);
  expect(await modeOf(join(dataDir, "kubun.db"))).toBe("600");
  expect(await server.stop()).toBe(0);
});

test("CheckDirPermission: an existing 0755 data directory gets etcd's warning", async () => {
  const dataDir = join(scratch, "open");
  await mkdir(dataDir, { mode: 0o755 });
  await chmod(dataDir, 0o755);
  const server = await startKubun(dataDir);
  expect(server.log()).toContain(
    `check file permission: directory "${dataDir}" exist, but the permission is "drwxr-xr-x". The recommended permission is "-rwx------" to prevent possible unprivileged access to the data`,
  );
  expect(await server.stop()).toBe(0);
  await chmod(dataDir, 0o700);
  const quiet = await startKubun(dataDir);
  expect(quiet.log()).not.toContain("check file permission");
  expect(await quiet.stop()).toBe(0);
});

test("data directory: a missing or empty kubun.db beside existing certificates is refused, and nothing is created", async () => {
  const dataDir = join(scratch, "lost-db");
  expect(await (await startKubun(dataDir)).stop()).toBe(0);
  for (const suffix of ["", "-wal", "-shm"]) await rm(join(dataDir, `kubun.db${suffix}`), { force: true });
  const missing = await runKubun(dataDir);
  expect(missing).toMatchObject({ exitCode: 1 });
  expect("log" in missing && missing.log).toContain(`its database kubun.db is missing; refusing to start an empty cluster in its place`);
  await expect(stat(join(dataDir, "kubun.db"))).rejects.toThrow();
});

test("data directory: an empty kubun.db beside existing certificates is refused with how to start fresh", async () => {
  const dataDir = join(scratch, "empty-db");
  expect(await (await startKubun(dataDir)).stop()).toBe(0);
  for (const suffix of ["-wal", "-shm"]) await rm(join(dataDir, `kubun.db${suffix}`), { force: true });
  await truncate(join(dataDir, "kubun.db"), 0);
  const empty = await runKubun(dataDir);
  expect(empty).toMatchObject({ exitCode: 1 });
  expect("log" in empty && empty.log).toContain(
    "its database kubun.db is empty; refusing to start an empty cluster in its place. Restore kubun.db, or start a new cluster deliberately with an empty --data-dir",
  );
});

test("--help says that the generated front-proxy CA is trusted for request headers, so front-proxy-client.key can act as any user", async () => {
  const { stdout, stderr } = await promisify(execFile)(KUBUN_BINARY, ["--help"]);
  expect(stdout + stderr).toContain("so front-proxy-client.key there can act as any user, cluster-admin included");
});
