/** The resourceVersion rules of get and list (spec 4.5), row by row, plus the invalid combinations. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createConfigMap, createNamespace, expectStatus, getJson, type Json, ownNames, sendJson } from "./_api.ts";
import { startServer, type TestServer } from "./harness.ts";

const NS = "rv";
const COLLECTION = `/api/v1/namespaces/${NS}/configmaps`;
let server: TestServer;
/** The revision right after a and b were created, before c was. */
let beforeC: number;

beforeAll(async () => {
  server = await startServer();
  await createNamespace(server, NS);
  await createConfigMap(server, NS, "a");
  const b = await createConfigMap(server, NS, "b");
  beforeC = Number(b.metadata.resourceVersion);
  await createConfigMap(server, NS, "c");
});
afterAll(async () => {
  await server?.stop();
});

function names(list: Json): string[] {
  return list.items.map((item: Json) => item.metadata.name).filter((name: string) => name.length === 1);
}

async function latestRevision(): Promise<number> {
  return Number((await getJson(server, COLLECTION)).metadata.resourceVersion);
}

test("get with resourceVersion unset returns the latest object", async () => {
  const first = await createConfigMap(server, NS, "get-latest");
  const updated = await sendJson(server, "PUT", `${COLLECTION}/get-latest`, { ...first, data: { key: "new" } });
  expect(updated.status).toBe(200);
  const read = await getJson(server, `${COLLECTION}/get-latest`);
  expect(read.data).toEqual({ key: "new" });
  expect(read.metadata.resourceVersion).toBe(updated.body.metadata.resourceVersion);
});

test("get with resourceVersion=0 returns the object", async () => {
  const read = await getJson(server, `${COLLECTION}/a?resourceVersion=0`);
  expect(read.metadata.name).toBe("a");
});

test("get with a non-zero resourceVersion returns an object not older than it", async () => {
  const read = await getJson(server, `${COLLECTION}/b?resourceVersion=${beforeC}`);
  expect(Number(read.metadata.resourceVersion)).toBeLessThanOrEqual(await latestRevision());
  expect(read.metadata.name).toBe("b");
});

test("list without limit: unset is the latest, 0 is any, non-zero is not older than", async () => {
  const latest = await getJson(server, COLLECTION);
  expect(names(latest)).toEqual(["a", "b", "c"]);
  const any = await getJson(server, `${COLLECTION}?resourceVersion=0`);
  expect(names(any)).toEqual(["a", "b", "c"]);
  const notOlder = await getJson(server, `${COLLECTION}?resourceVersion=${beforeC}`);
  expect(Number(notOlder.metadata.resourceVersion)).toBeGreaterThanOrEqual(beforeC);
  expect(names(notOlder)).toContain("b");
});

test("list with a limit and resourceVersion unset pages the latest state", async () => {
  // Controllers (and, on a shared etcd, other servers) write meanwhile: the page is read between the two lists.
  const before = await latestRevision();
  const page = await getJson(server, `${COLLECTION}?limit=2`);
  const after = await latestRevision();
  expect(page.items).toHaveLength(2);
  expect(page.metadata.continue).toBeString();
  expect(Number(page.metadata.resourceVersion)).toBeGreaterThanOrEqual(before);
  expect(Number(page.metadata.resourceVersion)).toBeLessThanOrEqual(after);
});

test("list with a limit and resourceVersion=0 is answered whole, without a continue token, as Cacher.GetList serves it from the watch cache", async () => {
  for (const query of ["limit=1&resourceVersion=0", "limit=1&resourceVersion=0&resourceVersionMatch=NotOlderThan"]) {
    const list = await getJson(server, `${COLLECTION}?${query}`);
    expect(names(list)).toEqual(["a", "b", "c"]);
    expect(list.metadata.continue).toBeUndefined();
    expect(list.metadata.remainingItemCount).toBeUndefined();
  }
});

test("list with a limit and a non-zero resourceVersion is exact: the state at that revision", async () => {
  const page = await getJson(server, `${COLLECTION}?limit=10&resourceVersion=${beforeC}`);
  expect(page.metadata.resourceVersion).toBe(String(beforeC));
  expect(names(page)).toEqual(["a", "b"]);
});

test("list with a continue token is exact from the token: later writes are not shown", async () => {
  await createNamespace(server, "rv-paging");
  for (const name of ["p1", "p2", "p3"]) await createConfigMap(server, "rv-paging", name);
  const first = await getJson(server, "/api/v1/namespaces/rv-paging/configmaps?limit=1");
  await createConfigMap(server, "rv-paging", "p4");
  await sendJson(server, "DELETE", "/api/v1/namespaces/rv-paging/configmaps/p3");

  const rest = await getJson(
    server,
    `/api/v1/namespaces/rv-paging/configmaps?limit=10&continue=${encodeURIComponent(first.metadata.continue)}`,
  );
  expect(rest.metadata.resourceVersion).toBe(first.metadata.resourceVersion);
  expect(ownNames({ items: [...first.items, ...rest.items] })).toEqual(["p1", "p2", "p3"]);
  expect(rest.metadata.continue ?? "").toBe("");

  const withZero = await getJson(
    server,
    `/api/v1/namespaces/rv-paging/configmaps?limit=10&resourceVersion=0&continue=${encodeURIComponent(first.metadata.continue)}`,
  );
  expect(withZero.metadata.resourceVersion).toBe(first.metadata.resourceVersion);
  // resourceVersion=0 with a token is treated as exact from the token: the same page as without it.
  expect(withZero.items.map((item: Json) => item.metadata.name)).toEqual(rest.items.map((item: Json) => item.metadata.name));
});

test("list with limit, continue and a non-zero resourceVersion answers 400", async () => {
  const first = await getJson(server, `${COLLECTION}?limit=1`);
  const answer = await sendJson(
    server,
    "GET",
    `${COLLECTION}?limit=1&resourceVersion=${beforeC}&continue=${encodeURIComponent(first.metadata.continue)}`,
  );
  expectStatus(answer, 400, "BadRequest", "specifying resource version is not allowed when using continue");
});

test("list with resourceVersionMatch=Exact is the state at that revision, with or without a limit", async () => {
  for (const limit of ["", "&limit=10"]) {
    const list = await getJson(server, `${COLLECTION}?resourceVersion=${beforeC}&resourceVersionMatch=Exact${limit}`);
    expect(list.metadata.resourceVersion).toBe(String(beforeC));
    expect(names(list)).toEqual(["a", "b"]);
  }
});

// kube-apiserver 1.26 rejects these in ValidateListOptions: 422 Invalid on meta.k8s.io ListOptions.
test("list with resourceVersionMatch=Exact and resourceVersion unset is rejected with kube's message", async () => {
  const answer = await sendJson(server, "GET", `${COLLECTION}?resourceVersionMatch=Exact`);
  expectStatus(
    answer,
    422,
    "Invalid",
    'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided',
  );
  expect(answer.body.details).toMatchObject({
    group: "meta.k8s.io",
    kind: "ListOptions",
    causes: [{ reason: "FieldValueForbidden", field: "resourceVersionMatch" }],
  });
});

test("list with resourceVersionMatch=Exact and resourceVersion=0 is rejected with kube's message", async () => {
  const answer = await sendJson(server, "GET", `${COLLECTION}?resourceVersion=0&resourceVersionMatch=Exact`);
  expectStatus(
    answer,
    422,
    "Invalid",
    'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch "exact" is forbidden for resourceVersion "0"',
  );
});

test("list with resourceVersionMatch=NotOlderThan: unset is rejected, 0 is any, non-zero is not older than", async () => {
  const unset = await sendJson(server, "GET", `${COLLECTION}?resourceVersionMatch=NotOlderThan`);
  expectStatus(unset, 422, "Invalid", /resourceVersionMatch is forbidden unless resourceVersion is provided/);
  const any = await getJson(server, `${COLLECTION}?resourceVersion=0&resourceVersionMatch=NotOlderThan`);
  expect(names(any)).toEqual(["a", "b", "c"]);
  const notOlder = await getJson(server, `${COLLECTION}?resourceVersion=${beforeC}&resourceVersionMatch=NotOlderThan&limit=10`);
  expect(Number(notOlder.metadata.resourceVersion)).toBeGreaterThanOrEqual(beforeC);
});

test("list with resourceVersionMatch and a continue token is rejected", async () => {
  const first = await getJson(server, `${COLLECTION}?limit=1`);
  const answer = await sendJson(
    server,
    "GET",
    `${COLLECTION}?limit=1&resourceVersion=0&resourceVersionMatch=NotOlderThan&continue=${encodeURIComponent(first.metadata.continue)}`,
  );
  expectStatus(answer, 422, "Invalid", /resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden when continue is provided/);
});

test("list with an unknown resourceVersionMatch is rejected listing the supported values", async () => {
  const answer = await sendJson(server, "GET", `${COLLECTION}?resourceVersion=1&resourceVersionMatch=Foo`);
  expectStatus(
    answer,
    422,
    "Invalid",
    'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Unsupported value: "Foo": supported values: "Exact", "NotOlderThan", ""',
  );
});

test("get and list at a resourceVersion newer than the store answer 504 with Retry-After", async () => {
  const tooLarge = (await latestRevision()) + 1000;
  const answers = await Promise.all([
    sendJson(server, "GET", `${COLLECTION}/a?resourceVersion=${tooLarge}`),
    sendJson(server, "GET", `${COLLECTION}?resourceVersion=${tooLarge}`),
    sendJson(server, "GET", `${COLLECTION}?resourceVersion=${tooLarge}&resourceVersionMatch=NotOlderThan`),
    sendJson(server, "GET", `${COLLECTION}?resourceVersion=${tooLarge}&resourceVersionMatch=Exact`),
  ]);
  for (const answer of answers) {
    expectStatus(answer, 504, "Timeout", new RegExp(`^Too large resource version: ${tooLarge}, current: \\d+$`));
    expect(answer.headers.get("Retry-After")).toBe("1");
    expect(answer.body.details).toMatchObject({
      retryAfterSeconds: 1,
      causes: [{ reason: "ResourceVersionTooLarge", message: "Too large resource version" }],
    });
  }
});

test("a limited NotOlderThan list newer than the store answers 504 without a retry, as the etcd3 store's validateMinimumResourceVersion (shouldDelegateList)", async () => {
  const tooLarge = (await latestRevision()) + 1000;
  const answer = await sendJson(server, "GET", `${COLLECTION}?resourceVersion=${tooLarge}&resourceVersionMatch=NotOlderThan&limit=2`);
  expectStatus(answer, 504, "Timeout", new RegExp(`^Too large resource version: ${tooLarge}, current: \\d+$`));
  expect(answer.headers.get("Retry-After")).toBeNull();
  expect(answer.body.details).toEqual({ causes: [{ reason: "ResourceVersionTooLarge", message: "Too large resource version" }] });
});

test("a get at the next resourceVersion waits for the store to reach it instead of failing (kube waits up to 3 s)", async () => {
  const next = (await latestRevision()) + 1;
  const waiting = sendJson(server, "GET", `${COLLECTION}/a?resourceVersion=${next}`);
  await createConfigMap(server, NS, "arrives-while-waiting");
  const answer = await waiting;
  expect(answer.status).toBe(200);
  expect(answer.body.metadata.name).toBe("a");
});

test("an unlimited list at the next resourceVersion waits for the store as kube's watch cache does (WaitUntilFreshAndList)", async () => {
  const next = (await latestRevision()) + 1;
  const waiting = sendJson(server, "GET", `${COLLECTION}?resourceVersion=${next}&resourceVersionMatch=NotOlderThan`);
  await createConfigMap(server, NS, "listed-while-waiting");
  const answer = await waiting;
  expect(answer.status).toBe(200);
  expect(Number(answer.body.metadata.resourceVersion)).toBeGreaterThanOrEqual(next);
});

test("list without a limit returns no continue token", async () => {
  const list = await getJson(server, COLLECTION);
  expect(list.metadata.continue).toBeUndefined();
  expect(list).toMatchObject({ kind: "ConfigMapList", apiVersion: "v1" });
});
