/**
 * Notices commits made by other connections to the same database file (another kubun process):
 * SQLite's `PRAGMA data_version` changes exactly when another connection has committed since this
 * connection last asked, and never for this connection's own commits. One PRAGMA is cheap, so it
 * is checked before "most recent" reads and on a timer while anyone listens for events.
 */
import type { SqliteStatement } from "../../runtime/sqlite-driver.ts";

/** How the store learns of other connections' commits. */
export interface ForeignCommits {
  /** True when another connection committed since the previous call. */
  changed(): boolean;
  /** Watches on a timer while anyone subscribes (idempotent). */
  start(): void;
  stop(): void;
}

/**
 * A connection in exclusive locking mode (schema.ts) is the file's only one for as long as it is open, so no other
 * connection can commit: there is nothing to poll for, neither per read nor on a timer.
 */
export const NO_FOREIGN_COMMITS: ForeignCommits = { changed: () => false, start: () => {}, stop: () => {} };

export class DataVersionPoller implements ForeignCommits {
  readonly #dataVersion: SqliteStatement;
  readonly #onChange: () => void;
  readonly #intervalMs: number;
  #last: number;
  #timer: ReturnType<typeof setInterval> | undefined;

  /** `dataVersion` is the prepared `PRAGMA data_version`; `onChange` runs when a poll sees a change. */
  constructor(dataVersion: SqliteStatement, onChange: () => void, options: { intervalMs: number }) {
    this.#dataVersion = dataVersion;
    this.#onChange = onChange;
    this.#intervalMs = options.intervalMs;
    this.#last = this.#read();
  }

  changed(): boolean {
    const version = this.#read();
    if (version === this.#last) return false;
    this.#last = version;
    return true;
  }

  /** The timer never keeps the process alive. */
  start(): void {
    if (this.#timer) return;
    this.#timer = setInterval(() => {
      if (this.changed()) this.#onChange();
    }, this.#intervalMs);
    (this.#timer as { unref?: () => void }).unref?.();
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  #read(): number {
    return Number(this.#dataVersion.get()!.data_version);
  }
}
