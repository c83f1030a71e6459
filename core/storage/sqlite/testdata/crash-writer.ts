/** Child process for crash.test.ts: writes until killed, printing each key once its write is acknowledged. */
import { openSqliteStorage } from "../mod.ts";

const storage = openSqliteStorage(process.argv[2]!);
const value = "x".repeat(512);
for (let round = 0;; round++) {
  // Concurrent writes per round so group commit is exercised too.
  await Promise.all(Array.from({ length: 8 }, async (_, i) => {
    const key = `/crash/${round}/${i}`;
    await storage.write({ op: "create", key, value });
    process.stdout.write(`${key}\n`);
  }));
}
