/** The bun:sqlite adapter: the only module that imports bun:sqlite. */
import { Database, type SQLQueryBindings } from "bun:sqlite";
import { runInTransaction, type SqliteDatabase, type SqliteRow, type SqliteStatement, type SqliteValue } from "./sqlite-driver.ts";

export function openSqliteDatabase(path: string): SqliteDatabase {
  const db = new Database(path, { create: true });
  // Closed while a statement is still prepared, SQLite keeps the connection (and its locks on the file) until the
  // statement is finalized, which Bun leaves to the garbage collector: close finalizes them itself.
  const prepared: { finalize(): void }[] = [];
  const kept = new Map<string, { run(): unknown; finalize(): void }>();
  const runKept = (sql: string) => {
    const statement = kept.get(sql) ?? db.prepare(sql);
    if (!kept.has(sql)) {
      prepared.push(statement);
      kept.set(sql, statement);
    }
    statement.run();
  };
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
    // bun:sqlite's db.transaction(fn) builds five wrappers at each call (2.1 µs, against 0.25 µs for these kept ones).
    transaction: (fn) => runInTransaction(runKept, fn, () => db.inTransaction),
    copyInto: async (file) => void db.run("VACUUM INTO ?", [file]),
    close: () => {
      for (const statement of prepared.splice(0)) statement.finalize();
      db.close();
    },
  };
}
