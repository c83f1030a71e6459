import { expect, test } from "bun:test";
import { parseRequestInfo } from "../request-info.ts";
import { type DeadlineWaiter, requestDeadlineMs, RequestDeadlines } from "./request-timeout.ts";

const infoOf = (method: string, target: string) => parseRequestInfo(method, new URL(`https://h${target}`));
const query = (target: string) => new URL(`https://h${target}`).searchParams;

test("WithRequestDeadline: the server maximum, or a shorter positive timeout parameter", () => {
  const get = infoOf("GET", "/api/v1/pods");
  expect(requestDeadlineMs(get, query("/api/v1/pods"), 60_000)).toBe(60_000);
  expect(requestDeadlineMs(get, query("/api/v1/pods?timeout=5s"), 60_000)).toBe(5_000);
  expect(requestDeadlineMs(get, query("/api/v1/pods?timeout=0s"), 60_000)).toBe(60_000);
  expect(requestDeadlineMs(get, query("/api/v1/pods?timeout=2m"), 60_000)).toBe(60_000);
});

test("WithRequestDeadline: long-running requests (watch, exec, log) have no deadline", () => {
  expect(requestDeadlineMs(infoOf("GET", "/api/v1/pods?watch=1"), query("/api/v1/pods?watch=1"), 60_000)).toBeUndefined();
  const log = "/api/v1/namespaces/a/pods/p/log";
  expect(requestDeadlineMs(infoOf("GET", log), query(log), 60_000)).toBeUndefined();
});

test("WithRequestDeadline parseTimeout: a malformed timeout is a 400 with Go's duration error", () => {
  const get = infoOf("GET", "/api/v1/pods");
  expect(() => requestDeadlineMs(get, query("/api/v1/pods?timeout=soon"), 60_000)).toThrow(
    'invalid timeout specified in the request URL - time: invalid duration "soon"',
  );
  expect(() => requestDeadlineMs(get, query("/api/v1/pods?timeout=10"), 60_000)).toThrow(
    'invalid timeout specified in the request URL - time: missing unit in duration "10"',
  );
});

/** A waiter that notes when it was told its deadline passed. */
function waiter(name: string, told: string[]): DeadlineWaiter & { toldAt?: number } {
  const one: DeadlineWaiter & { toldAt?: number } = {
    deadlineAt: 0,
    previousWaiter: undefined,
    nextWaiter: undefined,
    waitingIn: undefined,
    deadlinePassed() {
      one.toldAt = performance.now();
      told.push(name);
    },
  };
  return one;
}

test("timeoutHandler: waiters of one duration are told in the order they started, none before its deadline", async () => {
  const deadlines = new RequestDeadlines();
  const told: string[] = [];
  const started = performance.now();
  const [first, second, third] = ["first", "second", "third"].map((name) => waiter(name, told));
  deadlines.wait(first!, 20, started);
  deadlines.wait(second!, 20, started + 15);
  deadlines.wait(third!, 5, started);
  await Bun.sleep(60);
  expect(told).toEqual(["third", "first", "second"]);
  expect(first!.toldAt! - started).toBeGreaterThanOrEqual(20);
  expect(second!.toldAt! - started).toBeGreaterThanOrEqual(35);
  expect(third!.toldAt! - started).toBeGreaterThanOrEqual(5);
});

test("timeoutHandler: a waiter that left is not told, whichever place it held in its list", async () => {
  const deadlines = new RequestDeadlines();
  const told: string[] = [];
  const started = performance.now();
  const waiters = ["a", "b", "c", "d"].map((name) => waiter(name, told));
  for (const one of waiters) deadlines.wait(one, 10, started);
  deadlines.leave(waiters[0]!);
  deadlines.leave(waiters[2]!);
  deadlines.leave(waiters[3]!);
  deadlines.leave(waiters[3]!);
  await Bun.sleep(30);
  expect(told).toEqual(["b"]);
  // The list was left empty and dropped; a later waiter of the same duration is told again.
  const later = waiter("later", told);
  deadlines.wait(later, 10, performance.now());
  await Bun.sleep(30);
  expect(told).toEqual(["b", "later"]);
});
