/**
 * The few SQLite operations the storage backend needs, so a runtime adapter (bun:sqlite here,
 * node:sqlite under Deno) can supply them. Parameters are positional (`?`).
 */

export type SqliteValue = string | number | bigint | null | Uint8Array;
export type SqliteRow = Record<string, SqliteValue>;

export interface SqliteStatement {
  run(...params: SqliteValue[]): { changes: number };
  /** The first row, or undefined when there is none. */
  get(...params: SqliteValue[]): SqliteRow | undefined;
  all(...params: SqliteValue[]): SqliteRow[];
}

export interface SqliteDatabase {
  exec(sql: string): void;
  prepare(sql: string): SqliteStatement;
  /** Runs `fn` inside BEGIN IMMEDIATE … COMMIT; rolls back and rethrows when it throws. */
  transaction<T>(fn: () => T): T;
  /** Copies the database, as one read transaction sees it, into `file` (an existing empty file); writers go on. */
  copyInto(file: string): Promise<void>;
  close(): void;
}

/**
 * Wraps `fn` in an immediate transaction using plain SQL. `inTransaction`, when the driver can tell, keeps the
 * rollback from running after SQLite rolled back itself (an I/O error, a full disk), which would throw in place of
 * the error that ended the transaction.
 */
export function runInTransaction<T>(exec: (sql: string) => void, fn: () => T, inTransaction: () => boolean = () => true): T {
  exec("BEGIN IMMEDIATE");
  try {
    const result = fn();
    exec("COMMIT");
    return result;
  } catch (error) {
    if (inTransaction()) exec("ROLLBACK");
    throw error;
  }
}
