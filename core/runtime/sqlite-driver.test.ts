import { expect, test } from "bun:test";
import { runInTransaction } from "./sqlite-driver.ts";

test("runInTransaction commits what fn did, and rolls back and rethrows when fn throws", () => {
  const ran: string[] = [];
  expect(runInTransaction((sql) => ran.push(sql), () => 7)).toBe(7);
  const failure = new Error("constraint");
  expect(() =>
    runInTransaction((sql) => ran.push(sql), () => {
      throw failure;
    })
  ).toThrow(failure);
  expect(ran).toEqual(["BEGIN IMMEDIATE", "COMMIT", "BEGIN IMMEDIATE", "ROLLBACK"]);
});

test("runInTransaction rethrows the error that ended a transaction SQLite already rolled back, without a ROLLBACK", () => {
  const ran: string[] = [];
  const exec = (sql: string) => {
    if (sql === "ROLLBACK") throw new Error("cannot rollback - no transaction is active");
    ran.push(sql);
  };
  const diskFull = new Error("database or disk is full");
  expect(() =>
    runInTransaction(exec, () => {
      throw diskFull;
    }, () => false)
  ).toThrow(diskFull);
  expect(ran).toEqual(["BEGIN IMMEDIATE"]);
});
