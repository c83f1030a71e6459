import { expect, test } from "bun:test";
import { CurrentRows } from "./current-rows.ts";

const row = (key: string, value = "v", modRevision = 1) => ({ key, value, createRevision: 1, modRevision });

test("a row kept at the current revision answers at that revision only, and a read of a newer one drops it", () => {
  const rows = new CurrentRows();
  const kept = row("/a/1");
  rows.keep(kept, 5);
  expect(rows.get("/a/1", 5)).toBe(kept);
  expect(rows.get("/a/2", 5)).toBeUndefined();
  expect(rows.get("/a/1", 6)).toBeUndefined();
  rows.keep(row("/a/2", "w", 6), 6);
  expect(rows.get("/a/1", 5)).toBeUndefined();
  expect(rows.get("/a/2", 6)?.value).toBe("w");
});

test("a value over 64 KiB is not kept; past 4 Mi characters kept, the rows are dropped and kept afresh; clear drops all", () => {
  const rows = new CurrentRows();
  rows.keep(row("/big", "x".repeat(64 * 1024 + 1)), 1);
  expect(rows.get("/big", 1)).toBeUndefined();
  const largest = "x".repeat(64 * 1024);
  for (let i = 0; i < 64; i++) rows.keep(row(`/a/${i}`, largest), 1);
  expect([rows.get("/a/0", 1), rows.get("/a/63", 1)].every(Boolean)).toBe(true);
  rows.keep(row("/a/64", largest), 1);
  expect([rows.get("/a/0", 1), rows.get("/a/63", 1)]).toEqual([undefined, undefined]);
  expect(rows.get("/a/64", 1)).toBeDefined();
  rows.clear();
  expect(rows.get("/a/64", 1)).toBeUndefined();
});
