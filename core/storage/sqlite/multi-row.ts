/**
 * One SQL statement run over many rows at once, `INSERT … VALUES (…), (…)`, prepared for a few row counts and run in
 * chunks of those. A group commit's batch then costs a few statement runs instead of one per row (each run a call
 * into the driver, a step and a reset besides the binds): ~0.4 µs less a create at 25 a transaction, ~0.9 µs at 64
 * (bench/profiles/create-path.md, thirteenth session).
 */
import type { SqliteDatabase, SqliteStatement, SqliteValue } from "../../runtime/sqlite-driver.ts";

/** Rows per run, largest first; any count is a sum of these. SQLite binds at most 32,766 parameters a statement. */
const CHUNK_ROWS = [64, 8, 1] as const;

export class MultiRowStatement {
  readonly #columns: number;
  readonly #byRows: ReadonlyMap<number, SqliteStatement>;

  /** `sql(rows)` is the statement for that many rows of `columns` parameters each. */
  constructor(db: SqliteDatabase, columns: number, sql: (rows: number) => string) {
    this.#columns = columns;
    this.#byRows = new Map(CHUNK_ROWS.map((rows) => [rows, db.prepare(sql(rows))]));
  }

  /** Runs over the rows whose parameters `params` holds one row after the other. */
  run(params: readonly SqliteValue[]): void {
    const columns = this.#columns;
    let start = 0;
    for (const rows of CHUNK_ROWS) {
      const width = rows * columns;
      if (params.length - start < width) continue;
      const statement = this.#byRows.get(rows)!;
      for (; params.length - start >= width; start += width) statement.run(...params.slice(start, start + width));
    }
  }
}

/** `?, ?, …`: `count` parameters, comma-separated. */
function placeholders(count: number): string {
  return Array(count).fill("?").join(", ");
}

/** `(?, ?, …), (?, ?, …)`: `rows` rows of `columns` parameters. */
export function placeholderRows(rows: number, columns: number): string {
  return Array(rows).fill(`(${placeholders(columns)})`).join(", ");
}
