/**
 * Events have no watch cache in kube-apiserver 1.26 (DefaultWatchCacheSizes gives events and events.k8s.io/events 0),
 * so their reads follow the etcd3 store, not the cacher: paging at resourceVersion=0, no waiting for a resourceVersion,
 * no bookmarks, and the etcd3 watcher's 410. History is kept 3 s so the last rule can be seen.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createNamespace, expectStatus, getJson, openWatch, sendJson } from "./_api.ts";
import { eventsV1Event } from "./_events.ts";
import { startServer, type TestServer } from "./harness.ts";

const NS = "event-reads";
const CORE = `/api/v1/namespaces/${NS}/events`;
const EVENTS_V1 = `/apis/events.k8s.io/v1/namespaces/${NS}/events`;
let server: TestServer;
let firstRevision: number;

beforeAll(async () => {
  server = await startServer(["--watch-cache-history", "3s", "--etcd-compaction-interval", "1s"]);
  await createNamespace(server, NS);
  for (const name of ["a", "b", "c"]) {
    const created = await sendJson(server, "POST", EVENTS_V1, eventsV1Event(name, NS, `event ${name}`));
    expect(created.status).toBe(201);
    firstRevision ||= Number(created.body.metadata.resourceVersion);
  }
});
afterAll(async () => {
  await server?.stop();
});

test("an Event list at resourceVersion=0 keeps its limit and continue token, in both groups (no watch cache: the etcd3 store's GetList)", async () => {
  for (const collection of [CORE, EVENTS_V1]) {
    const page = await getJson(server, `${collection}?limit=2&resourceVersion=0`);
    expect(page.items.map((item: { metadata: { name: string } }) => item.metadata.name)).toEqual(["a", "b"]);
    expect(page.metadata.continue).toBeString();
    expect(page.metadata.remainingItemCount).toBe(1);
  }
});

test("an Event get or list newer than the store answers 504 without a retry (the etcd3 store's validateMinimumResourceVersion)", async () => {
  const tooLarge = Number((await getJson(server, CORE)).metadata.resourceVersion) + 1000;
  for (
    const path of [
      `${CORE}/a?resourceVersion=${tooLarge}`,
      `${CORE}?resourceVersion=${tooLarge}`,
      `${EVENTS_V1}?resourceVersion=${tooLarge}`,
    ]
  ) {
    const answer = await sendJson(server, "GET", path);
    expectStatus(answer, 504, "Timeout", new RegExp(`^Too large resource version: ${tooLarge}, current: \\d+$`));
    expect(answer.headers.get("Retry-After")).toBeNull();
    expect(answer.body.details).toEqual({ causes: [{ reason: "ResourceVersionTooLarge", message: "Too large resource version" }] });
  }
});

test("an Event watch asking for bookmarks gets none (the etcd3 watcher sends no BOOKMARK)", async () => {
  const start = (await getJson(server, CORE)).metadata.resourceVersion;
  const watch = await openWatch(server, `${CORE}?watch=true&allowWatchBookmarks=true&timeoutSeconds=3&resourceVersion=${start}`);
  try {
    const events = await watch.drain(5000);
    expect(events.filter((event) => event.type === "BOOKMARK")).toEqual([]);
    expect(await watch.ended(1000)).toBe(true);
  } finally {
    await watch.close();
  }
});

test("an Event watch from a compacted resourceVersion gets the etcd3 watcher's 410 (interpretWatchError)", async () => {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const newer = await sendJson(server, "POST", EVENTS_V1, eventsV1Event(`later-${Date.now()}`, NS, "later"));
    expect(newer.status).toBe(201);
    const exact = await sendJson(server, "GET", `${CORE}?resourceVersion=${firstRevision}&resourceVersionMatch=Exact`);
    if (exact.status === 410) break;
    if (Date.now() > deadline) throw new Error(`revision ${firstRevision} still readable after 15 s with 3 s of history`);
    await Bun.sleep(500);
  }
  const watch = await openWatch(server, `${CORE}?watch=true&resourceVersion=${firstRevision}`);
  try {
    const event = await watch.next();
    expect(event?.type).toBe("ERROR");
    expect(event?.object).toMatchObject({
      kind: "Status",
      status: "Failure",
      code: 410,
      reason: "Expired",
      message: "The resourceVersion for the provided watch is too old.",
    });
  } finally {
    await watch.close();
  }
});
