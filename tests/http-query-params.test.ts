/**
 * Query parameters of every options kind as kube's parameter codec decodes them (runtime/conversion.go):
 * booleans by Convert_Slice_string_To_bool, integers by Convert_Slice_string_To_int64, `pretty` by isPrettyPrint;
 * plus the trailing-slash paths go-restful serves like their slash-less forms.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { collectionState, createConfigMap, createNamespace, expectStatus, getJson, type Json, openWatch, sendJson } from "./_api.ts";
import { startServer, type TestServer } from "./harness.ts";

let server: TestServer;
const NS = "params";
const CONFIGMAPS = `/api/v1/namespaces/${NS}/configmaps`;

beforeAll(async () => {
  server = await startServer();
  await createNamespace(server, NS);
  await createConfigMap(server, NS, "seed");
});
afterAll(async () => {
  await server?.stop();
});

const TRUE_SPELLINGS = ["true", "True", "TRUE", "t", "1", "yes", ""];
const FALSE_SPELLINGS = ["false", "False", "FALSE", "0"];

/** `name=value`, or the bare `name` for the empty spelling (what `?watch` sends). */
const param = (name: string, value: string) => (value === "" ? name : `${name}=${encodeURIComponent(value)}`);

test("ListOptions.watch: every spelling but 0 and false opens a watch (Convert_Slice_string_To_bool)", async () => {
  for (const value of [...TRUE_SPELLINGS, "="]) {
    const query = value === "=" ? "watch=" : param("watch", value);
    const watch = await openWatch(server, `${CONFIGMAPS}?${query}&fieldSelector=metadata.name%3Dseed`);
    const event = await watch.next();
    expect({ query, type: event?.type, name: event?.object?.metadata?.name }).toEqual({ query, type: "ADDED", name: "seed" });
    await watch.close();
  }
  for (const value of FALSE_SPELLINGS) {
    const list = await getJson(server, `${CONFIGMAPS}?${param("watch", value)}`);
    expect([value, list.kind]).toEqual([value, "ConfigMapList"]);
  }
});

test("ListOptions.allowWatchBookmarks: True and t ask for bookmarks, False does not (Convert_Slice_string_To_bool)", async () => {
  // timeoutSeconds=3 ends each watch on the server side; a bookmark, when asked for, comes before the end.
  const bookmarksOf = async (value: string) => {
    const watch = await openWatch(
      server,
      `${CONFIGMAPS}?watch=1&allowWatchBookmarks=${value}&timeoutSeconds=3&fieldSelector=metadata.name%3Dnone`,
    );
    const events = await watch.drain(10_000);
    await watch.close();
    return events.filter((event) => event.type === "BOOKMARK").length;
  };
  expect(await bookmarksOf("True")).toBeGreaterThanOrEqual(1);
  expect(await bookmarksOf("t")).toBeGreaterThanOrEqual(1);
  expect(await bookmarksOf("False")).toBe(0);
});

test("ListOptions integers answer 400 with strconv.ParseInt's message (Convert_Slice_string_To_int64)", async () => {
  const cases: [string, string][] = [
    ["limit=ten", 'strconv.ParseInt: parsing "ten": invalid syntax'],
    ["timeoutSeconds=1.5", 'strconv.ParseInt: parsing "1.5": invalid syntax'],
    ["limit=9223372036854775808", 'strconv.ParseInt: parsing "9223372036854775808": value out of range'],
  ];
  for (const [query, message] of cases) expectStatus(await sendJson(server, "GET", `${CONFIGMAPS}?${query}`), 400, "BadRequest", message);
  expect((await getJson(server, `${CONFIGMAPS}?limit=%2B1`)).items.length).toBe(1);
});

test("PatchOptions.force: True, t and a bare force take over conflicting fields in server-side apply", async () => {
  const applyAs = (manager: string, value: string, query = "") =>
    sendJson(server, "PATCH", `${CONFIGMAPS}/applied?fieldManager=${manager}${query}`, {
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name: "applied" },
      data: { owner: value },
    }, "application/apply-patch+yaml");
  expect((await applyAs("first", "first")).status).toBe(201);
  expectStatus(await applyAs("second", "second"), 409, "Conflict");
  expectStatus(await applyAs("second", "second", "&force=false"), 409, "Conflict");
  for (const [i, spelling] of ["True", "t", ""].entries()) {
    const answer = await applyAs(`taker${i}`, `taker${i}`, `&${param("force", spelling)}`);
    expect([spelling, answer.status, answer.body.data?.owner]).toEqual([spelling, 200, `taker${i}`]);
  }
});

test("PatchOptions.force on a non-apply patch is 422 whatever its value (ValidatePatchOptions)", async () => {
  await createConfigMap(server, NS, "merged");
  const before = await collectionState(server, CONFIGMAPS);
  for (const value of ["false", "True"]) {
    const answer = await sendJson(
      server,
      "PATCH",
      `${CONFIGMAPS}/merged?force=${value}`,
      { data: { x: "y" } },
      "application/merge-patch+json",
    );
    expectStatus(
      answer,
      422,
      "Invalid",
      'PatchOptions.meta.k8s.io "" is invalid: force: Forbidden: may not be specified for non-apply patch',
    );
  }
  expect(await collectionState(server, CONFIGMAPS)).toEqual(before);
});

test("an unknown fieldValidation is a 422 for create, update and patch alike (ValidateFieldValidation)", async () => {
  const supported = 'fieldValidation: Unsupported value: "Loose": supported values: "", "Ignore", "Strict", "Warn"';
  const before = await collectionState(server, CONFIGMAPS);
  const create = await sendJson(server, "POST", `${CONFIGMAPS}?fieldValidation=Loose`, {
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: { name: "never" },
  });
  expectStatus(create, 422, "Invalid", `CreateOptions.meta.k8s.io "" is invalid: ${supported}`);
  const seed = await getJson(server, `${CONFIGMAPS}/seed`);
  const update = await sendJson(server, "PUT", `${CONFIGMAPS}/seed?fieldValidation=Loose`, { ...seed, data: { changed: "yes" } });
  expectStatus(update, 422, "Invalid", `UpdateOptions.meta.k8s.io "" is invalid: ${supported}`);
  const patch = await sendJson(
    server,
    "PATCH",
    `${CONFIGMAPS}/seed?fieldValidation=Loose`,
    { data: { changed: "yes" } },
    "application/merge-patch+json",
  );
  expectStatus(patch, 422, "Invalid", `PatchOptions.meta.k8s.io "" is invalid: ${supported}`);
  const apply = await sendJson(
    server,
    "PATCH",
    `${CONFIGMAPS}/seed?fieldValidation=Loose`,
    { apiVersion: "v1", kind: "ConfigMap" },
    "application/apply-patch+yaml",
  );
  expectStatus(
    apply,
    422,
    "Invalid",
    `PatchOptions.meta.k8s.io "" is invalid: [fieldManager: Required value: is required for apply patch, ${supported}]`,
  );
  expect(await collectionState(server, CONFIGMAPS)).toEqual(before);
});

test("fieldManager is at most 128 bytes and printable on create, update and patch, refused with ValidateFieldManager's 422 that changes nothing", async () => {
  const before = await collectionState(server, CONFIGMAPS);
  const unprintable = `fieldManager=${encodeURIComponent("me\u0007é\u200b")}`;
  const invalid = (kind: string) =>
    `${kind}.meta.k8s.io "" is invalid: [fieldManager: Invalid value: "me\\aé\\u200b": invalid character U+0007 (at position 2), ` +
    `fieldManager: Invalid value: "me\\aé\\u200b": invalid character U+200B (at position 5)]`;
  const created = await sendJson(server, "POST", `${CONFIGMAPS}?${unprintable}`, { metadata: { name: "unprintable" } });
  expectStatus(created, 422, "Invalid", invalid("CreateOptions"));
  const seed = await getJson(server, `${CONFIGMAPS}/seed`);
  const updated = await sendJson(server, "PUT", `${CONFIGMAPS}/seed?${unprintable}`, seed);
  expectStatus(updated, 422, "Invalid", invalid("UpdateOptions"));
  const patched = await sendJson(
    server,
    "PATCH",
    `${CONFIGMAPS}/seed?${unprintable}`,
    { data: { x: "y" } },
    "application/merge-patch+json",
  );
  expectStatus(patched, 422, "Invalid", invalid("PatchOptions"));
  // 64 two-byte characters are 128 bytes: the limit counts bytes, as Go's len does.
  const tooLong = await sendJson(
    server,
    "PATCH",
    `${CONFIGMAPS}/seed?fieldManager=${encodeURIComponent("é".repeat(65))}`,
    {},
    "application/merge-patch+json",
  );
  expectStatus(tooLong, 422, "Invalid", 'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Too long: must have at most 128 bytes');
  expect(await collectionState(server, CONFIGMAPS)).toEqual(before);
  const atLimit = await sendJson(
    server,
    "PATCH",
    `${CONFIGMAPS}/seed?fieldManager=${encodeURIComponent("é".repeat(64))}`,
    {},
    "application/merge-patch+json",
  );
  expect(atLimit.status).toBe(200);
});

/** An owner ConfigMap and a dependent that names it in ownerReferences. */
async function ownerAndDependent(name: string): Promise<void> {
  const owner = await createConfigMap(server, NS, `${name}-owner`);
  const dependent = {
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: {
      name: `${name}-dependent`,
      ownerReferences: [{ apiVersion: "v1", kind: "ConfigMap", name: owner.metadata.name, uid: owner.metadata.uid }],
    },
  };
  expect((await sendJson(server, "POST", CONFIGMAPS, dependent)).status).toBe(201);
}

async function until(path: string, done: (answer: { status: number; body: Json }) => boolean): Promise<{ status: number; body: Json }> {
  for (let i = 0; i < 200; i++) {
    const answer = await sendJson(server, "GET", path);
    if (done(answer)) return answer;
    await Bun.sleep(50);
  }
  throw new Error(`${path} never reached the expected state`);
}

test("DeleteOptions.orphanDependents=True keeps the dependents (Convert_Slice_string_To_Pointer_bool), False collects them", async () => {
  await ownerAndDependent("kept");
  expect((await sendJson(server, "DELETE", `${CONFIGMAPS}/kept-owner?orphanDependents=True`)).status).toBe(200);
  await until(`${CONFIGMAPS}/kept-owner`, (answer) => answer.status === 404);
  const orphan = await until(
    `${CONFIGMAPS}/kept-dependent`,
    (answer) => answer.status === 200 && answer.body.metadata.ownerReferences === undefined,
  );
  expect(orphan.body.metadata.name).toBe("kept-dependent");

  await ownerAndDependent("gone");
  expect((await sendJson(server, "DELETE", `${CONFIGMAPS}/gone-owner?orphanDependents=FALSE`)).status).toBe(200);
  await until(`${CONFIGMAPS}/gone-dependent`, (answer) => answer.status === 404);
});

test("DeleteOptions.gracePeriodSeconds that is not an int64 is a 400 and deletes nothing", async () => {
  await createConfigMap(server, NS, "graceful");
  expectStatus(
    await sendJson(server, "DELETE", `${CONFIGMAPS}/graceful?gracePeriodSeconds=soon`),
    400,
    "BadRequest",
    'strconv.ParseInt: parsing "soon": invalid syntax',
  );
  expect((await sendJson(server, "GET", `${CONFIGMAPS}/graceful`)).status).toBe(200);
  expect((await sendJson(server, "DELETE", `${CONFIGMAPS}/graceful?gracePeriodSeconds=0`)).status).toBe(200);
});

async function bodyText(path: string, headers: Record<string, string> = {}): Promise<string> {
  const response = await server.request("GET", path, { headers });
  expect({ path, status: response.status }).toEqual({ path, status: 200 });
  return await response.text();
}

const isIndented = (text: string) => text.startsWith("{\n  ");

test("pretty follows isPrettyPrint: strconv.ParseBool of the parameter, else indented for curl, Wget and browsers", async () => {
  const seed = `${CONFIGMAPS}/seed`;
  const cases: [string, Record<string, string>, boolean][] = [
    ["", {}, false],
    ["?pretty=True", {}, true],
    ["?pretty=t", {}, true],
    ["?pretty=1", {}, true],
    ["?pretty=yes", { "User-Agent": "curl/8.5.0" }, false],
    ["?pretty=false", { "User-Agent": "curl/8.5.0" }, false],
    ["", { "User-Agent": "curl/8.5.0" }, true],
    ["", { "User-Agent": "Wget/1.21.4" }, true],
    ["", { "User-Agent": "Mozilla/5.0 (X11; Linux x86_64)" }, true],
    ["", { "User-Agent": "kubectl/v1.32.0 (linux/amd64)" }, false],
  ];
  for (const [query, headers, pretty] of cases) {
    expect([query, headers, isIndented(await bodyText(`${seed}${query}`, headers))]).toEqual([query, headers, pretty]);
  }
  expect(isIndented(await bodyText(`${CONFIGMAPS}?pretty=True`))).toBe(true);
  expect(isIndented(await bodyText("/api/v1?pretty=True"))).toBe(true);
  // Errors too: ErrorNegotiated writes the Status through the same negotiation.
  const missing = await server.request("GET", `${CONFIGMAPS}/missing`, { headers: { "User-Agent": "curl/8.5.0" } });
  expect([missing.status, isIndented(await missing.text())]).toEqual([404, true]);
  const plain = await server.request("GET", `${CONFIGMAPS}/missing`);
  expect([plain.status, isIndented(await plain.text())]).toEqual([404, false]);
});

test("discovery and /version answer with a trailing slash as without one (go-restful trims it)", async () => {
  for (
    const [path, kind] of [["/api/", "APIVersions"], ["/apis/", "APIGroupList"], ["/api/v1/", "APIResourceList"], [
      "/apis/apps/",
      "APIGroup",
    ], ["/apis/apps/v1/", "APIResourceList"]]
  ) {
    const slashed = await getJson(server, path);
    expect([path, slashed.kind]).toEqual([path, kind]);
    expect(slashed).toEqual(await getJson(server, path.slice(0, -1)));
  }
  expect((await getJson(server, "/version/")).gitVersion).toBe((await getJson(server, "/version")).gitVersion);
  expect((await sendJson(server, "GET", "/apis/nothing.example.com/")).status).toBe(404);
});

test("resource paths with a trailing slash address the same collection and object (RequestInfoFactory trims it)", async () => {
  const list = await getJson(server, `${CONFIGMAPS}/`);
  expect(list.kind).toBe("ConfigMapList");
  expect((await getJson(server, `${CONFIGMAPS}/seed/`)).metadata.name).toBe("seed");
});
