/**
 * The audit log file with kube's rotation, which is lumberjack's (gopkg.in/natefinch/lumberjack.v2 Logger): a
 * write that would pass max size (MB; 0 is lumberjack's 100) first renames the file to
 * `<name>-<UTC 2006-01-02T15-04-05.000><ext>`; then backups past max count or max age (days) are removed and
 * the rest gzip-compressed when asked. Files are 0600: request bodies may hold secrets.
 */
import {
  closeSync,
  existsSync,
  fstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { basename, dirname, extname, join } from "node:path";
import { nodeZlib } from "../runtime/lazy-builtins.ts";
import { Buffer } from "node:buffer";

export interface RotationOptions {
  maxSizeMB: number;
  maxBackups: number;
  maxAgeDays: number;
  compress: boolean;
}

const MEGABYTE = 1024 * 1024;
const DEFAULT_MAX_SIZE_MB = 100;
const DAY_MS = 24 * 60 * 60 * 1000;

export class RotatingFile {
  #fd: number | undefined;
  #size = 0;
  readonly #max: number;
  readonly #prefix: string;
  readonly #ext: string;

  constructor(
    private readonly path: string,
    private readonly options: RotationOptions,
  ) {
    this.#max = (options.maxSizeMB > 0 ? options.maxSizeMB : DEFAULT_MAX_SIZE_MB) * MEGABYTE;
    this.#ext = extname(path);
    this.#prefix = `${basename(path, this.#ext)}-`;
    // kube's ensureLogFile: the folder and the file are created at start-up, so a path that cannot be written stops it.
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    this.#openExistingOrNew(0);
  }

  /**
   * Writes each line as lumberjack's Write would one at a time (a line that would pass the maximum size rotates
   * first; a line longer than the maximum is refused alone), but the lines that land in the same file go in one
   * system call. Answers, per line, the error that kept it out of the file.
   */
  write(lines: readonly string[]): (Error | undefined)[] {
    const errors: (Error | undefined)[] = new Array(lines.length).fill(undefined);
    let chunk: string[] = [];
    let chunkIndexes: number[] = [];
    let chunkBytes = 0;
    const flush = () => {
      if (chunk.length === 0) return;
      try {
        this.#size += writeSync(this.#fd!, chunk.length === 1 ? chunk[0]! : chunk.join(""));
      } catch (error) {
        for (const i of chunkIndexes) errors[i] = error as Error;
      }
      chunk = [];
      chunkIndexes = [];
      chunkBytes = 0;
    };
    lines.forEach((line, i) => {
      const bytes = Buffer.byteLength(line);
      if (bytes > this.#max) {
        errors[i] = new Error(`write length ${bytes} exceeds maximum file size ${this.#max}`);
        return;
      }
      try {
        if (this.#fd === undefined) this.#openExistingOrNew(bytes);
        if (this.#size + chunkBytes + bytes > this.#max) {
          flush();
          this.#rotate();
        }
      } catch (error) {
        errors[i] = error as Error;
        return;
      }
      chunk.push(line);
      chunkIndexes.push(i);
      chunkBytes += bytes;
    });
    flush();
    return errors;
  }

  close(): void {
    if (this.#fd !== undefined) closeSync(this.#fd);
    this.#fd = undefined;
  }

  #openExistingOrNew(bytes: number): void {
    if (existsSync(this.path)) {
      this.#fd = openSync(this.path, "a", 0o600);
      this.#size = fstatSync(this.#fd).size;
      if (this.#size + bytes >= this.#max) this.#rotate();
      return;
    }
    this.#openNew();
  }

  #openNew(): void {
    this.#fd = openSync(this.path, "a", 0o600);
    this.#size = 0;
  }

  #rotate(): void {
    this.close();
    if (existsSync(this.path)) renameSync(this.path, join(dirname(this.path), `${this.#prefix}${backupTimestamp(new Date())}${this.#ext}`));
    this.#openNew();
    this.#mill();
  }

  /** lumberjack's millRunOnce: drop backups beyond the count and the age, then compress the survivors. */
  #mill(): void {
    const folder = dirname(this.path);
    const backups = this.#backups(folder);
    let keep = backups;
    if (this.options.maxBackups > 0) keep = keep.slice(0, this.options.maxBackups);
    if (this.options.maxAgeDays > 0) {
      const cutoff = Date.now() - this.options.maxAgeDays * DAY_MS;
      keep = keep.filter((backup) => backup.time >= cutoff);
    }
    for (const backup of backups) if (!keep.includes(backup)) rmSync(join(folder, backup.file), { force: true });
    if (!this.options.compress) return;
    for (const backup of keep) {
      if (backup.file.endsWith(".gz")) continue;
      const source = join(folder, backup.file);
      writeFileSync(`${source}.gz`, nodeZlib().gzipSync(readFileSync(source)), { mode: 0o600 });
      rmSync(source);
    }
  }

  /** Backups of this file, newest first, with the time their name carries. */
  #backups(folder: string): { file: string; time: number }[] {
    const found: { file: string; time: number }[] = [];
    for (const file of readdirSync(folder)) {
      if (!file.startsWith(this.#prefix)) continue;
      const rest = file.slice(this.#prefix.length);
      const stamp = rest.endsWith(`${this.#ext}.gz`)
        ? rest.slice(0, -(this.#ext.length + 3))
        : rest.endsWith(this.#ext)
        ? rest.slice(0, rest.length - this.#ext.length)
        : undefined;
      const time = stamp === undefined ? NaN : parseBackupTimestamp(stamp);
      if (!Number.isNaN(time)) found.push({ file, time });
    }
    return found.sort((a, b) => b.time - a.time);
  }
}

/** Go layout 2006-01-02T15-04-05.000 in UTC. */
function backupTimestamp(date: Date): string {
  return date.toISOString().slice(0, 23).replace(/:/g, "-");
}

function parseBackupTimestamp(stamp: string): number {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})\.(\d{3})$/.exec(stamp);
  return match ? Date.parse(`${match[1]}T${match[2]}:${match[3]}:${match[4]}.${match[5]}Z`) : NaN;
}
