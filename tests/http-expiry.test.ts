/** 410 Gone once history is compacted: continue tokens, Exact lists and watches (--watch-cache-history 3s). */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createConfigMap, createNamespace, expectStatus, getJson, openWatch, ownNames, sendJson } from "./_api.ts";
import { startServer, type TestServer } from "./harness.ts";

const NS = "expiry";
const COLLECTION = `/api/v1/namespaces/${NS}/configmaps`;
let server: TestServer;
let firstRevision: number;
let snapshotRevision: number;
let continueToken: string;

beforeAll(async () => {
  // The compactor samples every 3 s and keeps 3 s of history; on etcd (scripts/test.sh's etcd pass) kube's
  // compactor compacts every second to the revision of a second before.
  server = await startServer(["--watch-cache-history", "3s", "--etcd-compaction-interval", "1s"]);
  await createNamespace(server, NS);
  const first = await createConfigMap(server, NS, "a");
  firstRevision = Number(first.metadata.resourceVersion);
  for (const name of ["b", "c", "d"]) await createConfigMap(server, NS, name);
  const page = await getJson(server, `${COLLECTION}?limit=2`);
  snapshotRevision = Number(page.metadata.resourceVersion);
  continueToken = page.metadata.continue;

  // Before compaction the snapshot is readable exactly.
  const exact = await getJson(server, `${COLLECTION}?resourceVersion=${snapshotRevision}&resourceVersionMatch=Exact`);
  expect(ownNames(exact)).toEqual(["a", "b", "c", "d"]);

  // Later writes give the compactor a newer revision to compact to; then wait until it did.
  await createConfigMap(server, NS, "e");
  await createConfigMap(server, NS, "f");
  const deadline = Date.now() + 12_000;
  for (;;) {
    const answer = await sendJson(server, "GET", `${COLLECTION}?resourceVersion=${snapshotRevision}&resourceVersionMatch=Exact`);
    if (answer.status === 410) break;
    if (Date.now() > deadline) {
      throw new Error(`revision ${snapshotRevision} still readable after 12 s with 3 s of history: ${answer.status}`);
    }
    await Bun.sleep(500);
  }
});
afterAll(async () => {
  await server?.stop();
});

test("list with resourceVersionMatch=Exact at a compacted revision answers 410 Expired", async () => {
  const answer = await sendJson(server, "GET", `${COLLECTION}?resourceVersion=${snapshotRevision}&resourceVersionMatch=Exact`);
  expectStatus(answer, 410, "Expired", "The resourceVersion for the provided list is too old.");
});

test("list with a limit and a compacted resourceVersion (legacy exact) answers 410 Expired", async () => {
  const answer = await sendJson(server, "GET", `${COLLECTION}?resourceVersion=${firstRevision}&limit=2`);
  expectStatus(answer, 410, "Expired", "The resourceVersion for the provided list is too old.");
});

test("list with an expired continue token answers 410 Expired with kube's message", async () => {
  const answer = await sendJson(server, "GET", `${COLLECTION}?limit=2&continue=${encodeURIComponent(continueToken)}`);
  expectStatus(
    answer,
    410,
    "Expired",
    /^The provided continue parameter is too old to display a consistent list result\. You can start a new list without the continue parameter/,
  );
});

test("a watch from a compacted resourceVersion gets one ERROR event with a 410 Expired Status", async () => {
  const watch = await openWatch(server, `${COLLECTION}?watch=true&resourceVersion=${firstRevision}`);
  try {
    const event = await watch.next(5000);
    expect(event?.type).toBe("ERROR");
    expect(event?.object).toMatchObject({ kind: "Status", apiVersion: "v1", status: "Failure", code: 410, reason: "Expired" });
    expect(event?.object.message).toMatch(new RegExp(`^too old resource version: ${firstRevision} \\(\\d+\\)$`));
    expect(await watch.ended(5000)).toBe(true);
  } finally {
    await watch.close();
  }
});

test("list without a resourceVersion still answers the latest state after compaction", async () => {
  const list = await getJson(server, COLLECTION);
  expect(list.items.map((item: { metadata: { name: string } }) => item.metadata.name).filter((name: string) => name.length === 1)).toEqual([
    "a",
    "b",
    "c",
    "d",
    "e",
    "f",
  ]);
});
