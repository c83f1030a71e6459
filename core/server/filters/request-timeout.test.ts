import { expect, test } from "bun:test";
import { parseRequestInfo } from "../request-info.ts";
import { requestDeadlineMs, withinDeadline } from "./request-timeout.ts";

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

test("timeoutHandler: an answer before the deadline wins, a late one is replaced by the 504", async () => {
  expect((await withinDeadline(1_000, Promise.resolve(new Response("ok")))).status).toBe(200);
  const late = await withinDeadline(10, new Promise<Response>((resolve) => setTimeout(() => resolve(new Response("late")), 200)));
  expect(late.status).toBe(504);
});

test("timeoutHandler: a failure before the deadline is passed on, one after the 504 is dropped", async () => {
  expect(await withinDeadline(1_000, Promise.reject(new Error("broken"))).catch((error: Error) => error.message)).toBe("broken");
  const late = withinDeadline(10, Bun.sleep(50).then(() => Promise.reject(new Error("too late"))));
  expect((await late).status).toBe(504);
  await Bun.sleep(60);
});
