import { expect, test } from "bun:test";
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { openSqliteDatabase } from "../../runtime/sqlite.ts";
import { openSqliteStorage } from "./mod.ts";
import { PAGE_SIZE, TEXT_ONLY_FORMAT } from "./schema.ts";
import { restoreSnapshot } from "./snapshot.ts";

/**
 * Written by the format-1 storage code (commit 2ef83ab): creates cm-1..cm-5 (revisions 1-5), cm-2 updated (6), cm-3
 * deleted (7), compacted at 6, then cm-4 updated (8) and cm-5 deleted (9).
 */
const FORMAT_1_DB = fileURLToPath(new URL("./testdata/v1-format.db", import.meta.url));
const KEY = (n: number) => `/registry/configmaps/default/cm-${n}`;

function withCopy(fn: (path: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "kubun-migrate-"));
  const path = join(dir, "kubun.db");
  copyFileSync(FORMAT_1_DB, path);
  return fn(path).finally(() => rmSync(dir, { recursive: true, force: true }));
}

test("a format-1 database opens with its objects, revisions and uncompacted events, and is rewritten as format 2", () =>
  withCopy(async (path) => {
    const storage = openSqliteStorage(path);
    expect(storage.currentRevision()).toBe(9);
    expect(storage.compactedRevision()).toBe(6);
    expect((await storage.range("/registry/")).items).toEqual([
      { key: KEY(1), value: '{"n":1}', createRevision: 1, modRevision: 1 },
      { key: KEY(2), value: '{"n":2,"updated":true}', createRevision: 2, modRevision: 6 },
      { key: KEY(4), value: '{"n":4,"updated":true}', createRevision: 4, modRevision: 8 },
    ]);
    // A watcher resuming from the compacted revision gets the events after it, previous values included.
    expect(await storage.eventsSince("/registry/", 6)).toEqual([
      {
        type: "DELETED",
        revision: 7,
        kv: { key: KEY(3), value: '{"n":3}', createRevision: 3, modRevision: 7 },
        prev: { key: KEY(3), value: '{"n":3}', createRevision: 3, modRevision: 3 },
      },
      {
        type: "MODIFIED",
        revision: 8,
        kv: { key: KEY(4), value: '{"n":4,"updated":true}', createRevision: 4, modRevision: 8 },
        prev: { key: KEY(4), value: '{"n":4}', createRevision: 4, modRevision: 4 },
      },
      {
        type: "DELETED",
        revision: 9,
        kv: { key: KEY(5), value: '{"n":5}', createRevision: 5, modRevision: 9 },
        prev: { key: KEY(5), value: '{"n":5}', createRevision: 5, modRevision: 5 },
      },
    ]);
    expect((await storage.range("/registry/", { revision: 7 })).items.map((kv) => kv.key)).toEqual([KEY(1), KEY(2), KEY(4), KEY(5)]);
    // The next write continues the revisions: none is handed out twice.
    expect((await storage.write({ op: "create", key: KEY(6), value: "{}" })).modRevision).toBe(10);
    await storage.close();

    const db = openSqliteDatabase(path);
    // Opened shared, it stays format 2 (ensureFormat): format 3 only for a store holding the file alone.
    expect(db.prepare("PRAGMA user_version").get()).toEqual({ user_version: TEXT_ONLY_FORMAT });
    expect(db.prepare("PRAGMA page_size").get()).toEqual({ page_size: PAGE_SIZE });
    expect(db.prepare("PRAGMA integrity_check").get()).toEqual({ integrity_check: "ok" });
    db.close();
  }));

test("a format-1 snapshot restores: its objects at the bumped revision, everything before compacted", () =>
  withCopy(async (snapshot) => {
    const restored = join(snapshot, "..", "restored.db");
    expect(restoreSnapshot(snapshot, restored, 1000).revision).toBe(1009);
    const storage = openSqliteStorage(restored);
    expect(storage.currentRevision()).toBe(1009);
    expect(storage.compactedRevision()).toBe(1009);
    expect((await storage.range("/registry/")).items.map((kv) => kv.key)).toEqual([KEY(1), KEY(2), KEY(4)]);
    await storage.close();
  }));
