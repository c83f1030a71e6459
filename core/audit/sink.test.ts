import { expect, test } from "bun:test";
import type { AuditEvent } from "./event.ts";
import { auditSink, type BatchConfig } from "./sink.ts";

const event = (id: string) => ({ auditID: id }) as AuditEvent;
const BATCH: BatchConfig = {
  bufferSize: 10,
  maxBatchSize: 3,
  maxBatchWaitMs: 60_000,
  throttleEnable: false,
  throttleQPS: 0,
  throttleBurst: 0,
};

test("blocking mode: a failed delivery is logged and ignored (ignoreErrorsBackend); blocking-strict reports it", async () => {
  const errors: unknown[] = [];
  const failing = () => Promise.reject(new Error("down"));
  expect(await auditSink("blocking", BATCH, (e) => e.auditID, failing, (e) => errors.push(e)).processEvent(event("a"))).toBe(true);
  expect(await auditSink("blocking-strict", BATCH, (e) => e.auditID, failing, (e) => errors.push(e)).processEvent(event("a"))).toBe(false);
  expect(errors).toHaveLength(2);
});

test("batch mode: full batches go at once, the rest on shutdown; events are serialized when handed over", async () => {
  const batches: string[][] = [];
  const sink = auditSink("batch", BATCH, (e) => e.auditID, (items) => Promise.resolve(void batches.push(items)), () => {});
  const changing = event("1");
  await sink.processEvent(changing);
  changing.auditID = "changed";
  for (const id of ["2", "3", "4"]) await sink.processEvent(event(id));
  await Bun.sleep(20);
  expect(batches).toEqual([["1", "2", "3"]]);
  await sink.shutdown();
  expect(batches).toEqual([["1", "2", "3"], ["4"]]);
});

test("batch mode: events beyond the buffer size are dropped", async () => {
  const batches: string[][] = [];
  const sink = auditSink(
    "batch",
    { ...BATCH, bufferSize: 2, maxBatchSize: 5 },
    (e) => e.auditID,
    (items) => Promise.resolve(void batches.push(items)),
    () => {},
  );
  for (const id of ["1", "2", "3"]) await sink.processEvent(event(id));
  await sink.shutdown();
  expect(batches).toEqual([["1", "2"]]);
});
