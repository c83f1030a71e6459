/** The bun:sqlite adapter: the only module that imports bun:sqlite. */
import { Database, type SQLQueryBindings } from "bun:sqlite";
import type { SqliteDatabase, SqliteRow, SqliteStatement, SqliteValue } from "./sqlite-driver.ts";

export function openSqliteDatabase(path: string): SqliteDatabase {
  const db = new Database(path, { create: true });
  // Closed while a statement is still prepared, SQLite keeps the connection (and its locks on the file) until the
  // statement is finalized, which Bun leaves to the garbage collector: close finalizes them itself.
  const prepared: { finalize(): void }[] = [];
  return {
    exec: (sql) => db.run(sql),
    prepare(sql): SqliteStatement {
      const statement = db.prepare<SqliteRow, SQLQueryBindings[]>(sql);
      prepared.push(statement);
      return {
        run: (...params: SqliteValue[]) => statement.run(...params),
        get: (...params: SqliteValue[]) => statement.get(...params) ?? undefined,
        all: (...params: SqliteValue[]) => statement.all(...params),
      };
    },
    transaction: (fn) => db.transaction(fn).immediate(),
    copyInto: async (file) => void db.run("VACUUM INTO ?", [file]),
    close: () => {
      for (const statement of prepared.splice(0)) statement.finalize();
      db.close();
    },
  };
}
