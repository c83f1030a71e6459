/**
 * A consistent copy of a live WAL-mode database taken without any SQLite lock, so it works while a server holds the
 * file exclusively (locking_mode=EXCLUSIVE, schema.ts) as well as beside processes sharing it: the database file,
 * then the whole `-wal` file, are copied into a private directory, and the copy is opened there, where SQLite's WAL
 * recovery rebuilds its index.
 *
 * Why the two copies make one consistent database (SQLite's rules, sqlite.org/walformat.html and fileformat2.html
 * "WAL file format"):
 * - Only checkpoints write the database file, and they write only pages whose frames are in the WAL. A page of the
 *   database copy caught old, new or torn by a checkpoint is therefore in the WAL, and the WAL copy, taken after,
 *   holds that frame: the recovered copy reads the page from the WAL.
 * - Frames are only appended to the WAL until it is restarted (after a complete checkpoint the next writer starts
 *   again at its beginning, with salt-1 incremented and a new salt-2 in the 32-byte header) or truncated. Either
 *   changes the header (or removes the file), so the header read before the database copy and again after the WAL
 *   copy tells whether the WAL copy may mix generations; if it changed, the copy is taken again.
 * - Recovery replays exactly the frames up to the last commit frame whose salts match the header and whose
 *   cumulative checksums are valid. A frame caught half-written, or a stale one of an earlier generation, ends the
 *   log there: the copy is the database as of an earlier commit, which is consistent.
 * A database not in WAL mode (a rollback journal) cannot be copied like this: its file is changed in place by each
 * commit. It is read through a connection instead, under SQLite's read lock.
 */
import { Buffer } from "node:buffer";
import { closeSync, constants, copyFileSync, mkdtempSync, openSync, readSync, rmSync } from "node:fs";
import { basename, join } from "node:path";

/** The WAL header: magic, format version, page size, checkpoint sequence, salt-1, salt-2, two checksums. */
const WAL_HEADER_BYTES = 32;
/** Offsets 18 and 19 of the database header: the file format's write and read versions, 2 for WAL mode. */
const WRITE_VERSION_OFFSET = 18;
const WAL_FORMAT_VERSION = 2;
/** Copies tried before giving up on a WAL that restarts during every one of them. */
const MAX_ATTEMPTS = 5;

export interface LiveCopyHooks {
  /** Runs between the database file's copy and the WAL's (a test seam; `attempt` counts from 1). */
  betweenCopies?: (attempt: number) => void | Promise<void>;
}

/**
 * Runs `read` on the path of a consistent copy of the database at `dbPath`, made in a private directory (0700)
 * created in `near` (so on the same filesystem as what the caller writes) and removed afterwards whatever happens.
 * A database not in WAL mode is handed over as it is (see above).
 */
export async function withLiveCopy<T>(
  dbPath: string,
  near: string,
  read: (path: string) => T | Promise<T>,
  hooks: LiveCopyHooks = {},
): Promise<T> {
  if (!inWalMode(dbPath)) return await read(dbPath);
  // mkdtemp creates the directory 0700: the copies hold whatever the database holds.
  const dir = mkdtempSync(join(near, ".kubun-copy-"));
  try {
    const copy = join(dir, basename(dbPath));
    await copyConsistently(dbPath, copy, hooks);
    return await read(copy);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function copyConsistently(dbPath: string, copy: string, hooks: LiveCopyHooks): Promise<void> {
  const walPath = `${dbPath}-wal`;
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    rmSync(`${copy}-wal`, { force: true });
    const before = walHeader(walPath);
    copyFileSync(dbPath, copy);
    await hooks.betweenCopies?.(attempt);
    const walCopied = before !== undefined && copyIfPresent(walPath, `${copy}-wal`);
    const after = walHeader(walPath);
    if (walCopied === (before !== undefined) && sameHeader(before, after)) return;
  }
  throw new Error(`the write-ahead log of ${dbPath} was restarted during each of ${MAX_ATTEMPTS} copies; try again`);
}

function inWalMode(dbPath: string): boolean {
  const header = readStart(dbPath, WRITE_VERSION_OFFSET + 2);
  return header !== undefined && header.length === WRITE_VERSION_OFFSET + 2 && header[WRITE_VERSION_OFFSET] === WAL_FORMAT_VERSION &&
    header[WRITE_VERSION_OFFSET + 1] === WAL_FORMAT_VERSION;
}

/** The WAL's header as it is now (shorter when the file is; undefined when there is no WAL). */
function walHeader(walPath: string): Buffer | undefined {
  return readStart(walPath, WAL_HEADER_BYTES);
}

function sameHeader(before: Buffer | undefined, after: Buffer | undefined): boolean {
  return before === undefined || after === undefined ? before === after : before.equals(after);
}

/** The first `bytes` bytes of the file (fewer if it is shorter), or undefined when it does not exist. */
function readStart(path: string, bytes: number): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  try {
    const start = Buffer.alloc(bytes);
    return start.subarray(0, readSync(fd, start, 0, bytes, 0));
  } finally {
    closeSync(fd);
  }
}

/** False when the file vanished (a closing server removes its WAL). */
function copyIfPresent(from: string, to: string): boolean {
  try {
    copyFileSync(from, to, constants.COPYFILE_EXCL);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw error;
  }
}
