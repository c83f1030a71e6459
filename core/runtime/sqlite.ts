/**
 * Opens SQLite with the running runtime's driver: bun:sqlite under Bun (and in the compiled binary),
 * node:sqlite elsewhere (Deno). Both imports are literal so `bun build --compile` bundles them; only the
 * one for the running runtime is ever evaluated.
 */
import type { SqliteDatabase } from "./sqlite-driver.ts";

const driver = "Bun" in globalThis ? await import("./sqlite-bun.ts") : await import("./sqlite-deno.ts");

export function openSqliteDatabase(path: string): SqliteDatabase {
  return driver.openSqliteDatabase(path);
}
