import { afterEach, beforeEach, expect, test } from "bun:test";
import { chmod, mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openSqliteDatabase } from "../runtime/sqlite.ts";
import {
  acquireStartupLock,
  checkDatabaseBesideCertificates,
  fileModeString,
  makeDatabaseFilesPrivate,
  openLeaderLock,
  preparePrivateDirectory,
} from "./data-dir.ts";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "kubun-data-dir-"));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

test("fileModeString() prints permissions as Go's os.FileMode.String() does", () => {
  expect(fileModeString(0o755, true)).toBe("drwxr-xr-x");
  expect(fileModeString(0o700, false)).toBe("-rwx------");
  expect(fileModeString(0o640, false)).toBe("-rw-r-----");
});

test("preparePrivateDirectory() creates 0700 silently and warns as etcd's CheckDirPermission for an existing group-readable one", async () => {
  const warnings: string[] = [];
  await preparePrivateDirectory(join(dir, "new"), (line) => warnings.push(line));
  expect(((await stat(join(dir, "new"))).mode & 0o777).toString(8)).toBe("700");
  expect(warnings).toEqual([]);
  await chmod(dir, 0o750);
  await preparePrivateDirectory(dir, (line) => warnings.push(line));
  expect(warnings).toEqual([
    `check file permission: directory ${
      JSON.stringify(dir)
    } exist, but the permission is "drwxr-x---". The recommended permission is "-rwx------" to prevent possible unprivileged access to the data`,
  ]);
});

test("makeDatabaseFilesPrivate() creates the database 0600 and narrows existing companions", async () => {
  await writeFile(join(dir, "kubun.db-wal"), "", { mode: 0o644 });
  const path = await makeDatabaseFilesPrivate(dir);
  expect(path).toBe(join(dir, "kubun.db"));
  for (const file of ["kubun.db", "kubun.db-wal"]) expect(((await stat(join(dir, file))).mode & 0o777).toString(8)).toBe("600");
});

test("checkDatabaseBesideCertificates() accepts a new directory or a database with data, and refuses certificates without one", async () => {
  await checkDatabaseBesideCertificates(dir);
  await writeFile(join(dir, "ca.crt"), "cert");
  await expect(checkDatabaseBesideCertificates(dir)).rejects.toThrow("its database kubun.db is missing");
  await writeFile(join(dir, "kubun.db"), "");
  await expect(checkDatabaseBesideCertificates(dir)).rejects.toThrow("its database kubun.db is empty");
  await writeFile(join(dir, "kubun.db"), "SQLite format 3\0");
  await checkDatabaseBesideCertificates(dir);
});

test("acquireStartupLock() holds an exclusive lock another connection cannot take until release()", async () => {
  const lock = await acquireStartupLock(dir);
  const other = openSqliteDatabase(join(dir, "kubun.lock"));
  expect(() => other.exec("BEGIN EXCLUSIVE")).toThrow("database is locked");
  lock.release();
  lock.release();
  other.exec("BEGIN EXCLUSIVE");
  other.exec("COMMIT");
  other.close();
});

test("openLeaderLock() is held by one opener at a time, without waiting, and is free again once released", async () => {
  const first = await openLeaderLock(dir);
  const second = await openLeaderLock(dir);
  expect(first.tryAcquire()).toBe(true);
  expect(second.tryAcquire()).toBe(false);
  expect(first.tryAcquire()).toBe(true);
  first.release();
  expect(second.tryAcquire()).toBe(true);
  second.release();
  expect(((await stat(join(dir, "kubun-leader.lock"))).mode & 0o777).toString(8)).toBe("600");
});
