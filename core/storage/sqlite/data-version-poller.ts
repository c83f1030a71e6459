/**
 * Notices commits made by other connections to the same database file (another kubun process):
 * SQLite's `PRAGMA data_version` changes exactly when another connection has committed since this
 * connection last asked, and never for this connection's own commits. One PRAGMA is cheap, so it
 * is checked before "most recent" reads and on a timer while anyone listens for events.
 */
import type { SqliteStatement } from "../../runtime/sqlite-driver.ts";

export class DataVersionPoller {
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

  /** True when another connection committed since the previous call. */
  changed(): boolean {
    const version = this.#read();
    if (version === this.#last) return false;
    this.#last = version;
    return true;
  }

  /** Polls on a timer (idempotent); the timer never keeps the process alive. */
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
