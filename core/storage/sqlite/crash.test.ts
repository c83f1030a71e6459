import { expect, test } from "bun:test";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { openSqliteDatabase } from "../../runtime/sqlite.ts";
import { openSqliteStorage } from "./mod.ts";

const WRITER = fileURLToPath(new URL("./testdata/crash-writer.ts", import.meta.url));

/** Runs the writer until it has acknowledged `count` keys, kills it with SIGKILL, returns the keys it acknowledged. */
function acknowledgedBeforeKill(path: string, count: number, args: string[] = []): Promise<string[]> {
  const child = spawn(process.execPath, [WRITER, path, ...args], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  let output = "";
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (chunk: string) => {
    output += chunk;
    if (output.split("\n").length > count) child.kill("SIGKILL");
  });
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("exit", (_code, signal) => {
      if (signal !== "SIGKILL") reject(new Error(`writer exited on its own (${signal})`));
      // Only complete lines were acknowledged; a torn last line is dropped.
      else resolve(output.split("\n").slice(0, -1));
    });
  });
}

/** Kills a writer run with `args` after `count` acknowledgements; every one is stored, revisions contiguous. */
async function expectNothingAcknowledgedLost(count: number, args: string[]): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "kubun-crash-"));
  try {
    const path = join(dir, "state.db");
    const acknowledged = await acknowledgedBeforeKill(path, count, args);
    expect(acknowledged.length).toBeGreaterThanOrEqual(count);

    const db = openSqliteDatabase(path);
    expect(db.prepare("PRAGMA integrity_check").get()).toEqual({ integrity_check: "ok" });
    db.close();

    const storage = openSqliteStorage(path);
    const stored = new Set((await storage.range("/crash/")).items.map((kv) => kv.key));
    expect(acknowledged.filter((key) => !stored.has(key))).toEqual([]);
    expect(storage.currentRevision()).toBe(stored.size);
    await storage.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test("every acknowledged write survives kill -9 and the database stays intact", async () => {
  await expectNothingAcknowledgedLost(2000, ["8"]);
}, 30_000);

test(
  "kill -9 under 64 concurrent writers, with WAL syncs pending while the WAL is checkpointed and truncated, loses nothing acknowledged",
  async () => {
    await expectNothingAcknowledgedLost(4000, ["64", "checkpointing"]);
  },
  30_000,
);
