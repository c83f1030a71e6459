/**
 * Child process for crash.test.ts: `writers` concurrent writers create keys until killed, printing each key once
 * its write is acknowledged. With "checkpointing", another connection also cuts the WAL (TRUNCATE checkpoint) and
 * the store compacts as it goes, so syncs are pending while the WAL is rewritten.
 */
import { openSqliteDatabase } from "../../../runtime/sqlite.ts";
import { openSqliteStorage } from "../mod.ts";

const [path, writers, mode] = [process.argv[2]!, Number(process.argv[3] ?? 8), process.argv[4]];
const storage = openSqliteStorage(path);
const value = "x".repeat(512);
if (mode === "checkpointing") {
  const other = openSqliteDatabase(path);
  setInterval(() => other.exec("PRAGMA wal_checkpoint(TRUNCATE)"), 3);
  setInterval(() => void storage.compact(Math.max(0, storage.currentRevision() - 50)), 7);
}
await Promise.all(Array.from({ length: writers }, async (_, writer) => {
  for (let n = 0;; n++) {
    const key = `/crash/${writer}/${n}`;
    await storage.write({ op: "create", key, value });
    process.stdout.write(`${key}\n`);
  }
}));
