/**
 * A consistent copy of a live WAL-mode database taken without any SQLite lock, so it works while a server holds the
 * file exclusively (locking_mode=EXCLUSIVE, schema.ts) as well as beside processes sharing it: the database file,
 * then the whole `-wal` file, are copied beside each other (`X` and `X-wal`), and SQLite's WAL recovery rebuilds the
 * index when `X` is opened (snapshot.ts does so into a snapshot, withLiveCopy below for a private reader).
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
 * - A process rewriting the file in rollback mode meanwhile (schema.ts rewriteIfAlone: out of WAL mode, VACUUM in
 *   place, back) removes the WAL or changes its header when there was one; when there was none, the database
 *   header read again after the copy tells: the format versions (bytes 18–19) are no longer 2, or the file change
 *   counter (bytes 24–27), which every rollback-mode commit increments (sqlite.org/fileformat2.html "File change
 *   counter"), moved. WAL-mode commits need not move it, and checkpoints copy page 1 with its counter from the WAL,
 *   so it is compared only when there was no WAL.
 * A database not in WAL mode (a rollback journal) cannot be copied like this: its file is changed in place by each
 * commit. It is read through a connection instead, under SQLite's read lock.
 *
 * The process whose SQLite connection holds the file (a server's scheduled snapshots) must never close a descriptor
 * of the database file: POSIX fcntl locks belong to the process and the file, so closing any descriptor of it drops
 * every lock the connection holds (SQLite's os_unix.c defers its own closes for this reason), and another process
 * could then open a file the server believes it holds alone. Such a process reads the file through
 * `heldDescriptor`, opened once and kept for the process's lifetime, and only with `readSync`: Deno's asynchronous
 * `fs.read` duplicates the descriptor and closes the duplicate, which drops those locks as surely. The reads go in
 * chunks with a turn of the event loop between them, so a large database does not hold up the requests served.
 */
import { Buffer } from "node:buffer";
import { closeSync, ftruncateSync, openSync, readdirSync, readSync, rmSync, writeSync } from "node:fs";
import { copyFile, mkdtemp } from "node:fs/promises";
import { basename, join } from "node:path";
import { setImmediate } from "node:timers";

/** The WAL header: magic, format version, page size, checkpoint sequence, salt-1, salt-2, two checksums. */
const WAL_HEADER_BYTES = 32;
/** The database header (fileformat2.html "The Database Header"). */
const DATABASE_HEADER_BYTES = 100;
/** Offsets 18 and 19 of the database header: the file format's write and read versions, 2 for WAL mode. */
const WRITE_VERSION_OFFSET = 18;
const WAL_FORMAT_VERSION = 2;
/** Offset of the file change counter, a big-endian 4-byte integer. */
const CHANGE_COUNTER_OFFSET = 24;
/** Copies tried before giving up on a WAL that restarts during every one of them. */
const MAX_ATTEMPTS = 5;
/** The database file is read in pieces of this size, the event loop turning between them. */
const CHUNK_BYTES = 1 << 18;
/** The private directories withLiveCopy makes; one an interrupted process left behind is removed by removeStaleCopies. */
const COPY_DIR_PREFIX = ".kubun-copy-";

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
 * Copies the live database at `dbPath` into `to` (created 0600, or overwritten) and its WAL, when it has one, into
 * `${to}-wal`, consistently (see above): SQLite opening `to` recovers one committed state of the database. Answers
 * false when the database is not in WAL mode; then `to` is left empty and there is no `${to}-wal`.
 */
export async function copyLiveFiles(dbPath: string, to: string, options: LiveCopyOptions = {}): Promise<boolean> {
  const fd = options.writerProcess ? heldDescriptor(dbPath) : openSync(dbPath, "r");
  // The copies hold whatever the database holds.
  const out = openSync(to, "w", 0o600);
  try {
    return await copyConsistently(dbPath, fd, out, to, options);
  } finally {
    closeSync(out);
    if (!options.writerProcess) closeSync(fd);
  }
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
  // mkdtemp creates the directory 0700.
  const dir = await mkdtemp(join(near, COPY_DIR_PREFIX));
  try {
    const copy = join(dir, basename(dbPath));
    return await use(await copyLiveFiles(dbPath, copy, options) ? copy : dbPath);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Removes the private directories of withLiveCopy calls in `dir` that never finished (a process killed meanwhile). */
export function removeStaleCopies(dir: string): string[] {
  const stale = readdirSync(dir).filter((name) => name.startsWith(COPY_DIR_PREFIX));
  for (const name of stale) rmSync(join(dir, name), { recursive: true, force: true });
  return stale;
}

const heldDescriptors = new Map<string, number>();

/** A read-only descriptor of the file, opened once per process and path and never closed (see above). */
function heldDescriptor(path: string): number {
  let fd = heldDescriptors.get(path);
  if (fd === undefined) heldDescriptors.set(path, fd = openSync(path, "r"));
  return fd;
}

async function copyConsistently(dbPath: string, fd: number, out: number, to: string, options: LiveCopyOptions): Promise<boolean> {
  const walPath = `${dbPath}-wal`;
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    rmSync(`${to}-wal`, { force: true });
    ftruncateSync(out, 0);
    const databaseBefore = readStart(fd, DATABASE_HEADER_BYTES);
    if (!inWalMode(databaseBefore)) return false;
    const walBefore = walHeader(walPath);
    await copyFromDescriptor(fd, out);
    await options.betweenCopies?.(attempt);
    const walCopied = walBefore !== undefined && await copyIfPresent(walPath, `${to}-wal`);
    const walAfter = walHeader(walPath);
    const databaseAfter = readStart(fd, DATABASE_HEADER_BYTES);
    const sameWal = walCopied === (walBefore !== undefined) && sameHeader(walBefore, walAfter);
    const noRewrite = inWalMode(databaseAfter) && (walBefore !== undefined || sameChangeCounter(databaseBefore, databaseAfter));
    if (sameWal && noRewrite) return true;
  }
  throw new Error(`the database ${dbPath} or its write-ahead log was rewritten during each of ${MAX_ATTEMPTS} copies; try again`);
}

function inWalMode(header: Buffer): boolean {
  return header.length > WRITE_VERSION_OFFSET + 1 && header[WRITE_VERSION_OFFSET] === WAL_FORMAT_VERSION &&
    header[WRITE_VERSION_OFFSET + 1] === WAL_FORMAT_VERSION;
}

function sameChangeCounter(before: Buffer, after: Buffer): boolean {
  const end = CHANGE_COUNTER_OFFSET + 4;
  return after.length >= end && before.subarray(CHANGE_COUNTER_OFFSET, end).equals(after.subarray(CHANGE_COUNTER_OFFSET, end));
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

/**
 * The whole file behind `fd` into `out`, read at offsets so the descriptor is shared safely, with readSync only and
 * a macrotask between chunks (see above).
 */
async function copyFromDescriptor(fd: number, out: number): Promise<void> {
  const chunk = Buffer.alloc(CHUNK_BYTES);
  for (let position = 0;; position += CHUNK_BYTES) {
    const bytesRead = readSync(fd, chunk, 0, CHUNK_BYTES, position);
    if (bytesRead === 0) return;
    writeSync(out, chunk, 0, bytesRead, position);
    if (bytesRead < CHUNK_BYTES) return;
    await new Promise((resolve) => setImmediate(resolve));
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
