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
 *   log there: the copy is the database as of an earlier commit, which is consistent. It is never earlier than a
 *   frame a checkpoint copied into the database file: those were complete before the checkpoint began.
 * A database not in WAL mode (a rollback journal) cannot be copied like this: its file is changed in place by each
 * commit. It is read through a connection instead, under SQLite's read lock.
 *
 * The process whose SQLite connection holds the file (a server's scheduled snapshots) must never close a descriptor
 * of the database file: POSIX fcntl locks belong to the process and the file, so closing any descriptor of it drops
 * every lock the connection holds (SQLite's os_unix.c defers its own closes for this reason), and another process
 * could then open a file the server believes it holds alone. Such a process reads the file through
 * `heldDescriptor`, opened once and kept for the process's lifetime.
 */
import { Buffer } from "node:buffer";
import { closeSync, openSync, read, readSync, rmSync } from "node:fs";
import { copyFile, mkdtemp, open } from "node:fs/promises";
import { basename, join } from "node:path";
import { promisify } from "node:util";

/** The WAL header: magic, format version, page size, checkpoint sequence, salt-1, salt-2, two checksums. */
const WAL_HEADER_BYTES = 32;
/** Offsets 18 and 19 of the database header: the file format's write and read versions, 2 for WAL mode. */
const WRITE_VERSION_OFFSET = 18;
const WAL_FORMAT_VERSION = 2;
/** Copies tried before giving up on a WAL that restarts during every one of them. */
const MAX_ATTEMPTS = 5;
/** The database file is read in pieces of this size, off the JavaScript thread. */
const CHUNK_BYTES = 1 << 20;

const readAt = promisify(read);

export interface LiveCopyOptions {
  /**
   * Read the database file through a descriptor this process keeps open (heldDescriptor, above): for a process whose
   * own SQLite connection holds the file. Use it on the thread that opened the connection.
   */
  writerProcess?: boolean;
  /** Runs between the database file's copy and the WAL's (a test seam; `attempt` counts from 1). */
  betweenCopies?: (attempt: number) => void | Promise<void>;
}

/**
 * Runs `use` on the path of a consistent copy of the database at `dbPath`, made in a private directory (0700)
 * created in `near` (so on the same filesystem as what the caller writes) and removed afterwards whatever happens.
 * A database not in WAL mode is handed over as it is (see above).
 */
export async function withLiveCopy<T>(
  dbPath: string,
  near: string,
  use: (path: string) => T | Promise<T>,
  options: LiveCopyOptions = {},
): Promise<T> {
  const fd = options.writerProcess ? heldDescriptor(dbPath) : openSync(dbPath, "r");
  try {
    if (!inWalMode(fd)) return await use(dbPath);
    // mkdtemp creates the directory 0700: the copies hold whatever the database holds.
    const dir = await mkdtemp(join(near, ".kubun-copy-"));
    try {
      const copy = join(dir, basename(dbPath));
      await copyConsistently(dbPath, fd, copy, options);
      return await use(copy);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  } finally {
    if (!options.writerProcess) closeSync(fd);
  }
}

const heldDescriptors = new Map<string, number>();

/** A read-only descriptor of the file, opened once per process and path and never closed (see above). */
function heldDescriptor(path: string): number {
  let fd = heldDescriptors.get(path);
  if (fd === undefined) heldDescriptors.set(path, fd = openSync(path, "r"));
  return fd;
}

async function copyConsistently(dbPath: string, fd: number, copy: string, options: LiveCopyOptions): Promise<void> {
  const walPath = `${dbPath}-wal`;
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    rmSync(`${copy}-wal`, { force: true });
    const before = walHeader(walPath);
    await copyFromDescriptor(fd, copy);
    await options.betweenCopies?.(attempt);
    const walCopied = before !== undefined && await copyIfPresent(walPath, `${copy}-wal`);
    const after = walHeader(walPath);
    if (walCopied === (before !== undefined) && sameHeader(before, after)) return;
  }
  throw new Error(`the write-ahead log of ${dbPath} was restarted during each of ${MAX_ATTEMPTS} copies; try again`);
}

function inWalMode(fd: number): boolean {
  const header = readStart(fd, WRITE_VERSION_OFFSET + 2);
  return header.length === WRITE_VERSION_OFFSET + 2 && header[WRITE_VERSION_OFFSET] === WAL_FORMAT_VERSION &&
    header[WRITE_VERSION_OFFSET + 1] === WAL_FORMAT_VERSION;
}

/** The WAL's header as it is now (shorter when the file is; undefined when there is no WAL). */
function walHeader(walPath: string): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(walPath, "r");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  try {
    return readStart(fd, WAL_HEADER_BYTES);
  } finally {
    closeSync(fd);
  }
}

function sameHeader(before: Buffer | undefined, after: Buffer | undefined): boolean {
  return before === undefined || after === undefined ? before === after : before.equals(after);
}

/** The first `bytes` bytes of the file (fewer if it is shorter). */
function readStart(fd: number, bytes: number): Buffer {
  const start = Buffer.alloc(bytes);
  return start.subarray(0, readSync(fd, start, 0, bytes, 0));
}

/** The whole file behind `fd` into a new file `to` (0600), read at offsets so the descriptor is shared safely. */
async function copyFromDescriptor(fd: number, to: string): Promise<void> {
  const out = await open(to, "w", 0o600);
  try {
    const chunk = Buffer.alloc(CHUNK_BYTES);
    for (let position = 0;;) {
      const { bytesRead } = await readAt(fd, chunk, 0, CHUNK_BYTES, position);
      if (bytesRead === 0) return;
      await out.write(chunk, 0, bytesRead);
      position += bytesRead;
    }
  } finally {
    await out.close();
  }
}

/** False when the file vanished (a closing server removes its WAL). No SQLite lock is on the WAL file itself. */
async function copyIfPresent(from: string, to: string): Promise<boolean> {
  try {
    await copyFile(from, to);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw error;
  }
}
