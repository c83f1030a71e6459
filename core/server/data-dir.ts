/**
 * The data directory's safety rules at start: private permissions (etcd's warning when the directory is open to
 * others, database files 0600 whatever the umask), one process at a time through first-start initialisation, and
 * no silent new cluster beside an existing cluster's certificates.
 */
import { chmod, mkdir, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { LeaderLock } from "../controllers/mod.ts";
import { openSqliteDatabase } from "../runtime/sqlite.ts";
import { openSqliteStorage, type SqliteStorage, type SqliteStorageOptions } from "../storage/sqlite/mod.ts";

export const DATABASE_FILE = "kubun.db";
/** SQLite's companions of the database file; SQLite gives them the database file's permissions. */
const DATABASE_COMPANIONS = ["-wal", "-shm"];
const LOCK_FILE = "kubun.lock";
const LEADER_LOCK_FILE = "kubun-leader.lock";
const CA_CERT_FILE = "ca.crt";
const PRIVATE_DIR_MODE = 0o700;
/** Long enough for another process to create its keys and certificates. */
const LOCK_WAIT_MS = 120_000;

/** Creates the directory 0700, or warns as etcd's fileutil.CheckDirPermission does when an existing one is open to others. */
export async function preparePrivateDirectory(dir: string, warn: (line: string) => void): Promise<void> {
  await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const mode = (await stat(dir)).mode & 0o777;
  if ((mode & 0o077) === 0) return;
  warn(
    `check file permission: directory ${JSON.stringify(dir)} exist, but the permission is ${JSON.stringify(fileModeString(mode, true))}. ` +
      `The recommended permission is ${
        JSON.stringify(fileModeString(PRIVATE_DIR_MODE, false))
      } to prevent possible unprivileged access to the data`,
  );
}

/** Go's os.FileMode.String() for permission bits: "drwxr-xr-x", "-rwx------". */
export function fileModeString(mode: number, directory: boolean): string {
  const bits = "rwxrwxrwx";
  return (directory ? "d" : "-") + [...bits].map((letter, i) => (mode & (1 << (8 - i)) ? letter : "-")).join("");
}

export interface StartupLock {
  /** Idempotent. */
  release(): void;
}

/**
 * Takes the data directory's start-up lock, waiting while another process holds it, so processes started together
 * create one CA, one database and one set of bootstrap objects. It is an exclusive SQLite lock, which the system
 * drops when its holder dies. One per process: the wait blocks, so a second holder in the same process would never
 * see the first release.
 */
export async function acquireStartupLock(dir: string): Promise<StartupLock> {
  const path = join(dir, LOCK_FILE);
  await writeFile(path, "", { mode: 0o600, flag: "a" });
  const lock = openSqliteDatabase(path);
  try {
    lock.exec(`PRAGMA busy_timeout = ${LOCK_WAIT_MS}`);
    lock.exec("BEGIN EXCLUSIVE");
  } catch (error) {
    lock.close();
    throw error;
  }
  let held = true;
  return {
    release() {
      if (!held) return;
      held = false;
      lock.exec("COMMIT");
      lock.close();
    },
  };
}

/**
 * The controllers' leader lock of processes sharing this data directory's SQLite file (they share a host, so an OS
 * lock can elect them): an exclusive SQLite lock on its own file, held while leading. Taking and holding it writes
 * nothing, and the system drops it the moment its holder dies, kill -9 included.
 */
export async function openLeaderLock(dir: string): Promise<LeaderLock> {
  const path = join(dir, LEADER_LOCK_FILE);
  await writeFile(path, "", { mode: 0o600, flag: "a" });
  const lock = openSqliteDatabase(path);
  lock.exec("PRAGMA busy_timeout = 0");
  let held = false;
  let open = true;
  return {
    tryAcquire() {
      if (held || !open) return held;
      try {
        lock.exec("BEGIN EXCLUSIVE");
        held = true;
      } catch (error) {
        if (!isBusy(error)) throw error;
      }
      return held;
    },
    release() {
      if (!open) return;
      open = false;
      if (held) lock.exec("COMMIT");
      held = false;
      lock.close();
    },
  };
}

/** SQLITE_BUSY as bun:sqlite (code), Node's node:sqlite (errcode 5) and Deno's (only SQLite's message for it) report it. */
function isBusy(error: unknown): boolean {
  const { code, errcode, message } = error as { code?: string; errcode?: number; message?: string };
  return code === "SQLITE_BUSY" || errcode === 5 || message === "database is locked";
}

/**
 * Refuses a data directory whose certificates outlived its database: starting would serve a new, empty cluster
 * under the old cluster's identity.
 */
export async function checkDatabaseBesideCertificates(dir: string): Promise<void> {
  if (!(await exists(join(dir, CA_CERT_FILE)))) return;
  const database = join(dir, DATABASE_FILE);
  const size = (await stat(database).catch(() => undefined))?.size;
  if (size !== undefined && size > 0) return;
  throw new Error(
    `the data directory ${dir} holds a cluster's certificates (${CA_CERT_FILE}) but its database ${DATABASE_FILE} is ${
      size === undefined ? "missing" : "empty"
    }; ` +
      `refusing to start an empty cluster in its place. Restore ${DATABASE_FILE}, or start a new cluster deliberately with an empty --data-dir ` +
      `(or after removing the certificates and keys from this one).`,
  );
}

/** Creates the database file 0600 when missing and makes it and its companions 0600 when present. */
export async function makeDatabaseFilesPrivate(dir: string): Promise<string> {
  const database = join(dir, DATABASE_FILE);
  await writeFile(database, "", { mode: 0o600, flag: "a" });
  for (const path of [database, ...DATABASE_COMPANIONS.map((suffix) => database + suffix)]) {
    await chmod(path, 0o600).catch((e: NodeJS.ErrnoException) => (e.code === "ENOENT" ? undefined : Promise.reject(e)));
  }
  return database;
}

/**
 * Opens the data directory's store, its files made private first. A store held by another process answers
 * SQLITE_BUSY: one holding it exclusively (the default), or one sharing it while this one asks for it exclusively.
 * That becomes an error saying so and what to do, instead of SQLite's "database is locked".
 */
export async function openDataDirStore(dir: string, options: SqliteStorageOptions): Promise<{ path: string; storage: SqliteStorage }> {
  const path = await makeDatabaseFilesPrivate(dir);
  try {
    return { path, storage: openSqliteStorage(path, options) };
  } catch (error) {
    if (!isBusy(error)) throw error;
    throw new Error(
      `data directory ${dir} is in use by another kubun process; to share one data directory, start every process on it with --data-dir-shared`,
    );
  }
}

async function exists(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined)) !== undefined;
}
