import { expect, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { saveSnapshot } from "./snapshot.ts";

test("a snapshot whose copy fails leaves no file behind, so retention counts only snapshots", async () => {
  const dir = mkdtempSync(join(tmpdir(), "kubun-snapshot-"));
  try {
    const dbPath = join(dir, "kubun.db");
    writeFileSync(dbPath, "this is not a SQLite database, but long enough to be read as one".repeat(100));
    const file = join(dir, "kubun-snapshot-1.db");
    await expect(saveSnapshot(dbPath, file)).rejects.toThrow("file is not a database");
    expect(existsSync(file)).toBe(false);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
