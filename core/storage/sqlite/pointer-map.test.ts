import { expect, test } from "bun:test";
import { openSqliteDatabase } from "../../runtime/sqlite.ts";
import { openSqliteStorage } from "./mod.ts";
import { withDatabasePath } from "./testing.ts";

const autoVacuum = (path: string) => {
  const db = openSqliteDatabase(path);
  try {
    return Number(db.prepare("PRAGMA auto_vacuum").get()!.auto_vacuum);
  } finally {
    db.close();
  }
};

/** Rewrites the file as an earlier kubun made it: the same tables with auto_vacuum = INCREMENTAL. */
const toIncrementalAutoVacuum = (path: string) => {
  const earlier = openSqliteDatabase(path);
  earlier.exec("PRAGMA auto_vacuum = INCREMENTAL");
  earlier.exec("VACUUM");
  earlier.close();
  expect(autoVacuum(path)).toBe(2);
};

test("a new database keeps no auto-vacuum pointer map, so a commit allocating a page writes none", async () => {
  await withDatabasePath(async (path) => {
    const storage = openSqliteStorage(path);
    await storage.write({ op: "create", key: "/a", value: "{}" });
    await storage.close();
    expect(autoVacuum(path)).toBe(0);
  });
});

test("a database an earlier kubun made with incremental auto-vacuum is rewritten without it at open, objects and revisions kept", async () => {
  await withDatabasePath(async (path) => {
    const first = openSqliteStorage(path);
    await first.write({ op: "create", key: "/a", value: '{"n":1}' });
    await first.write({ op: "update", key: "/a", value: '{"n":2}', expectedRevision: 0 });
    await first.close();
    toIncrementalAutoVacuum(path);

    const reopened = openSqliteStorage(path);
    expect(await reopened.get("/a")).toEqual({ key: "/a", value: '{"n":2}', createRevision: 1, modRevision: 2 });
    expect((await reopened.write({ op: "create", key: "/b", value: "{}" })).modRevision).toBe(3);
    await reopened.close();
    expect(autoVacuum(path)).toBe(0);
  });
});

test("the rewrite at open happens only alone with the file: beside a store serving from it, the file stays as it is and both go on", async () => {
  await withDatabasePath(async (path) => {
    const serving = openSqliteStorage(path);
    await serving.write({ op: "create", key: "/a", value: "{}" });
    // Beside it, the file becomes what an earlier kubun made (a VACUUM in WAL mode runs beside other connections).
    toIncrementalAutoVacuum(path);

    const second = openSqliteStorage(path);
    expect(autoVacuum(path)).toBe(2);
    expect((await serving.write({ op: "create", key: "/b", value: "{}" })).modRevision).toBe(2);
    expect((await second.write({ op: "create", key: "/c", value: "{}" })).modRevision).toBe(3);
    await second.close();
    await serving.close();
    // Alone at the next open, it is rewritten.
    await openSqliteStorage(path).close();
    expect(autoVacuum(path)).toBe(0);
  });
});
