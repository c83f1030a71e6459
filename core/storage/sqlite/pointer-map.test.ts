import { expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openSqliteDatabase } from "../../runtime/sqlite.ts";
import { openSqliteStorage } from "./mod.ts";

const autoVacuum = (path: string) => {
  const db = openSqliteDatabase(path);
  try {
    return Number(db.prepare("PRAGMA auto_vacuum").get()!.auto_vacuum);
  } finally {
    db.close();
  }
};

test("a new database keeps no auto-vacuum pointer map, so a commit allocating a page writes none", async () => {
  const dir = mkdtempSync(join(tmpdir(), "kubun-pointer-map-"));
  try {
    const path = join(dir, "kubun.db");
    const storage = openSqliteStorage(path);
    await storage.write({ op: "create", key: "/a", value: "{}" });
    await storage.close();
    expect(autoVacuum(path)).toBe(0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a database an earlier kubun made with incremental auto-vacuum is rewritten without it at open, objects and revisions kept", async () => {
  const dir = mkdtempSync(join(tmpdir(), "kubun-pointer-map-"));
  try {
    const path = join(dir, "kubun.db");
    const first = openSqliteStorage(path);
    await first.write({ op: "create", key: "/a", value: '{"n":1}' });
    await first.write({ op: "update", key: "/a", value: '{"n":2}', expectedRevision: 0 });
    await first.close();
    // The earlier layout: the same tables, rewritten with auto_vacuum = INCREMENTAL.
    const earlier = openSqliteDatabase(path);
    earlier.exec("PRAGMA auto_vacuum = INCREMENTAL");
    earlier.exec("VACUUM");
    earlier.close();
    expect(autoVacuum(path)).toBe(2);

    const reopened = openSqliteStorage(path);
    expect(await reopened.get("/a")).toEqual({ key: "/a", value: '{"n":2}', createRevision: 1, modRevision: 2 });
    expect((await reopened.write({ op: "create", key: "/b", value: "{}" })).modRevision).toBe(3);
    await reopened.close();
    expect(autoVacuum(path)).toBe(0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
