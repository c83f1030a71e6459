import { afterEach, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openSqliteDatabase } from "../../runtime/sqlite.ts";
import { walPathOf } from "./wal-sync.ts";

const directories: string[] = [];
afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

function fileDatabase() {
  const directory = mkdtempSync(join(tmpdir(), "kubun-wal-"));
  directories.push(directory);
  return { db: openSqliteDatabase(join(directory, "kubun.db")), path: join(directory, "kubun.db") };
}

test("the WAL of a database file in WAL mode is the file SQLite names <database>-wal", () => {
  const { db, path } = fileDatabase();
  db.exec("PRAGMA journal_mode = WAL");
  expect(walPathOf(db)).toEndWith(`${path.split("/").pop()}-wal`);
  db.close();
});

test("no WAL to sync in a rollback-journal or in-memory database: SQLite's own synchronous setting syncs those", () => {
  const { db } = fileDatabase();
  expect(walPathOf(db)).toBeUndefined();
  db.close();
  const memory = openSqliteDatabase(":memory:");
  expect(walPathOf(memory)).toBeUndefined();
  memory.close();
});
