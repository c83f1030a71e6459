/**
 * The node:sqlite adapter, for running from source under Deno (or Node). node:sqlite is loaded when a database is
 * opened: bundled into the compiled binary, a static import of it was loaded at every start under Bun too, where
 * bun:sqlite serves (sqlite.ts; bench/profiles/memory.md).
 */
import type * as NodeSqlite from "node:sqlite";
import { lazyModule } from "./lazy-module.ts";
import { runInTransaction, type SqliteDatabase, type SqliteRow, type SqliteValue } from "./sqlite-driver.ts";

const nodeSqlite = lazyModule<typeof NodeSqlite>(() => require("node:sqlite"), import.meta.url, "node:sqlite");

export function openSqliteDatabase(path: string): SqliteDatabase {
  const { backup, DatabaseSync } = nodeSqlite();
  const db = new DatabaseSync(path);
  const exec = (sql: string) => db.exec(sql);
  return {
    exec,
    prepare(sql) {
      const statement = db.prepare(sql);
      return {
        run: (...params: SqliteValue[]) => ({ changes: Number(statement.run(...params).changes) }),
        get: (...params: SqliteValue[]) => statement.get(...params) as SqliteRow | undefined,
        all: (...params: SqliteValue[]) => statement.all(...params) as SqliteRow[],
      };
    },
    transaction: (fn) => runInTransaction(exec, fn),
    // Deno's node:sqlite allows no attached database without --allow-all, and VACUUM INTO attaches its target. The
    // online backup API copying every page in one step reads the database in one transaction as well.
    copyInto: async (file) => void await backup(db, file, { rate: -1 }),
    close: () => db.close(),
  };
}
