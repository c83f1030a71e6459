/**
 * Test kit: what the WAL of a database file holds, page by page, and which b-tree each page belongs to; a WAL sync
 * held by the test.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SqliteDatabase } from "../../runtime/sqlite-driver.ts";

/** A WAL sync the test finishes or fails by hand, for tests of the storage's users (the watch broker). */
export { HeldSync } from "./_held-sync.ts";

/** Runs `fn` with the path of a database file in a new temporary directory, removed afterwards. */
export async function withDatabasePath<T>(fn: (path: string) => T | Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), "kubun-sqlite-"));
  try {
    return await fn(join(dir, "kubun.db"));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const WAL_HEADER_BYTES = 32;
const FRAME_HEADER_BYTES = 24;

/** The page number of each frame in `<path>-wal`, how many frames end a transaction, and the page size. */
export function walFrames(path: string): { pages: number[]; commits: number; pageSize: number } {
  const wal = readFileSync(`${path}-wal`);
  const pageSize = wal.readUInt32BE(8);
  const pages: number[] = [];
  let commits = 0;
  for (let offset = WAL_HEADER_BYTES; offset + FRAME_HEADER_BYTES + pageSize <= wal.length; offset += FRAME_HEADER_BYTES + pageSize) {
    pages.push(wal.readUInt32BE(offset));
    // A commit frame records the database size after the transaction; other frames record 0.
    if (wal.readUInt32BE(offset + 4) !== 0) commits++;
  }
  return { pages, commits, pageSize };
}

/**
 * What each page is now, by SQLite's dbstat table: "<b-tree>", "<b-tree> overflow" or "<b-tree> internal"; page 1
 * is "page 1 (header)". Pages absent (pointer-map and free pages) have no entry.
 */
export function pageOwners(db: SqliteDatabase): Map<number, string> {
  const owners = new Map<number, string>([[1, "page 1 (header)"]]);
  for (const row of db.prepare("SELECT name, pageno, pagetype FROM dbstat").all()) {
    const kind = row.pagetype === "leaf" ? "" : ` ${row.pagetype}`;
    if (Number(row.pageno) !== 1) owners.set(Number(row.pageno), `${row.name}${kind}`);
  }
  return owners;
}
