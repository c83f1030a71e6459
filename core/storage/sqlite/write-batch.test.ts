import { expect, test } from "bun:test";
import { openSqliteDatabase } from "../../runtime/sqlite.ts";
import type { SqliteDatabase } from "../../runtime/sqlite-driver.ts";
import { seededRandom } from "../contract-suite.ts";
import type { WriteOp } from "../storage.ts";
import { readStoredRevisions } from "./committed-history.ts";
import { initializeSchema } from "./schema.ts";
import { prepareStatements } from "./statements.ts";
import { applyWriteBatch, type BatchResult } from "./write-batch.ts";

function openDatabase(): { db: SqliteDatabase; apply: (ops: WriteOp[]) => BatchResult } {
  const db = openSqliteDatabase(":memory:");
  initializeSchema(db, "FULL");
  const statements = prepareStatements(db);
  const apply = (ops: WriteOp[]) =>
    db.transaction(() =>
      applyWriteBatch(statements, ops, ops.map((op) => op.op === "delete" ? null : op.value), readStoredRevisions(statements).current)
    );
  return { db, apply };
}

function tables(db: SqliteDatabase) {
  return {
    kv: db.prepare("SELECT * FROM kv ORDER BY key").all(),
    history: db.prepare("SELECT * FROM history ORDER BY rev").all(),
  };
}

/** Creates, updates (some at a stale revision) and deletes over a few keys, so that one batch meets its own writes. */
function mixedOps(count: number): WriteOp[] {
  const random = seededRandom(7);
  return Array.from({ length: count }, (_, step): WriteOp => {
    const key = `/k/${Math.floor(random() * 12)}`;
    const pick = random();
    if (pick < 0.4) return { op: "create", key, value: `v${step}` };
    if (pick < 0.75) return { op: "update", key, value: `v${step}`, expectedRevision: random() < 0.7 ? 0 : step };
    return { op: "delete", key, expectedRevision: 0 };
  });
}

test("a batch's ops see the batch's earlier ops: one batch leaves the outcomes, events and rows of one op per batch", () => {
  // Some keys exist before the batch, so it updates, deletes and re-creates stored rows as well as its own.
  const seed: WriteOp[] = [0, 1, 2, 3, 4, 5].map((i) => ({ op: "create", key: `/k/${i}`, value: `seed${i}` }));
  // 150 ops: several runs of each chunk size (64, 8, 1) of the multi-row statements.
  const ops = mixedOps(150);
  const together = openDatabase();
  const oneByOne = openDatabase();
  together.apply(seed);
  oneByOne.apply(seed);
  const batch = together.apply(ops);
  const single = ops.map((op) => oneByOne.apply([op]));
  expect(batch.outcomes).toEqual(single.map((result) => result.outcomes[0]!));
  expect(batch.events).toEqual(single.flatMap((result) => result.events));
  expect(batch.revision).toBe(single[single.length - 1]!.revision);
  expect(batch.outcomes.filter((outcome) => !outcome.ok).length).toBeGreaterThan(10);
  expect(tables(together.db)).toEqual(tables(oneByOne.db));
  together.db.close();
  oneByOne.db.close();
});

test("a key deleted and created again in one batch keeps the new create revision", () => {
  const { db, apply } = openDatabase();
  apply([{ op: "create", key: "/k/a", value: "first" }]);
  const { events } = apply([
    { op: "delete", key: "/k/a", expectedRevision: 1 },
    { op: "create", key: "/k/a", value: "second" },
    { op: "update", key: "/k/a", value: "third", expectedRevision: 3 },
  ]);
  expect(events.map((event) => [event.type, event.kv.createRevision, event.kv.modRevision])).toEqual([
    ["DELETED", 1, 2],
    ["ADDED", 3, 3],
    ["MODIFIED", 3, 4],
  ]);
  expect(db.prepare("SELECT key, create_rev, mod_rev FROM kv").all()).toEqual([{ key: "/k/a", create_rev: 3, mod_rev: 4 }]);
  db.close();
});
