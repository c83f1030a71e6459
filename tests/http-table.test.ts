/** The forms of read answers: Table lists and watches (Accept: application/json;as=Table), their refusals, headers. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createConfigMap, createNamespace, expectStatus, type Json, sendJson } from "./_api.ts";
import { parse } from "yaml";
import { startServer, type TestServer } from "./harness.ts";
import { WatchStream } from "./watch-stream.ts";

const NS = "tables";
const COLLECTION = `/api/v1/namespaces/${NS}/configmaps`;
const TABLE = "application/json;as=Table;v=v1;g=meta.k8s.io";
let server: TestServer;

beforeAll(async () => {
  server = await startServer();
  await createNamespace(server, NS);
  await createConfigMap(server, NS, "one");
});
afterAll(async () => {
  await server?.stop();
});

async function get(path: string, accept: string): Promise<{ status: number; body: Json; headers: Headers }> {
  const response = await server.request("GET", path, { headers: { Accept: accept } });
  return { status: response.status, body: await response.json(), headers: response.headers };
}

test("a Table watch sends the column definitions with its first event only, null after (serveWatch's Fixup sets TableOptions.NoHeaders)", async () => {
  const response = await server.request("GET", `${COLLECTION}?watch=true&fieldSelector=metadata.name%3Done`, {
    headers: { Accept: TABLE },
  });
  expect(response.status).toBe(200);
  const watch = new WatchStream(response);
  try {
    const first = await watch.next();
    expect(first?.type).toBe("ADDED");
    expect(first?.object.columnDefinitions.map((column: Json) => column.name)).toEqual(["Name", "Data", "Age"]);
    const patched = await server.request("PATCH", `${COLLECTION}/one`, {
      body: JSON.stringify({ data: { k: "v" } }),
      headers: { "Content-Type": "application/merge-patch+json" },
    });
    expect(patched.status).toBe(200);
    const second = await watch.next();
    expect(second?.type).toBe("MODIFIED");
    expect(second?.object).toMatchObject({ kind: "Table", apiVersion: "meta.k8s.io/v1", columnDefinitions: null });
    expect(second?.object.rows[0].cells[0]).toBe("one");
  } finally {
    await watch.close();
  }
});

test("includeObject of a Table: None, Metadata, Object, and empty meaning Metadata (ValidateTableOptions)", async () => {
  const rowObject = async (value: string) => (await get(`${COLLECTION}?includeObject=${value}`, TABLE)).body.rows[0].object;
  expect(await rowObject("None")).toBeUndefined();
  expect(await rowObject("Metadata")).toMatchObject({ kind: "PartialObjectMetadata", apiVersion: "meta.k8s.io/v1" });
  expect(await rowObject("")).toMatchObject({ kind: "PartialObjectMetadata", apiVersion: "meta.k8s.io/v1" });
  expect(await rowObject("Object")).toMatchObject({ kind: "ConfigMap", apiVersion: "v1", data: {} });
});

test("an unknown includeObject answers optionsForTransform's 400 for a Table, and is not read for other forms", async () => {
  for (const path of [`${COLLECTION}?includeObject=Everything`, `${COLLECTION}/one?includeObject=Everything`]) {
    expectStatus(
      await get(path, TABLE),
      400,
      "BadRequest",
      `Unable to convert to Table as requested: includeObject: Invalid value: "Everything": must be 'Metadata', 'Object', 'None', or empty`,
    );
  }
  const watch = await get(`${COLLECTION}?watch=true&includeObject=Everything`, TABLE);
  expect(watch.status).toBe(400);
  const list = await sendJson(server, "GET", `${COLLECTION}?includeObject=Everything`);
  expect(list.status).toBe(200);
  expect(list.body.kind).toBe("ConfigMapList");
});

test("an Accept nothing serves answers 406 listing the serializers' media types (NegotiateOutputMediaType, MediaTypesForSerializer)", async () => {
  for (
    const accept of [
      "text/html",
      "application/vnd.kubernetes.protobuf;as=Table;v=v1;g=meta.k8s.io",
      "application/json;as=Table;v=v2;g=meta.k8s.io",
    ]
  ) {
    expectStatus(
      await get(COLLECTION, accept),
      406,
      "NotAcceptable",
      "only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf",
    );
  }
});

test("Table and metadata-only answers, of lists, gets and watches, say Content-Type: application/json (WriteObjectNegotiated, serveWatch)", async () => {
  const partial = "application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io";
  const answers = [
    await server.request("GET", COLLECTION, { headers: { Accept: TABLE } }),
    await server.request("GET", `${COLLECTION}/one`, { headers: { Accept: TABLE } }),
    await server.request("GET", `${COLLECTION}?watch=true&timeoutSeconds=1`, { headers: { Accept: TABLE } }),
    await server.request("GET", COLLECTION, { headers: { Accept: partial } }),
  ];
  const bodies = await Promise.all(answers.map((answer) => answer.text()));
  expect(
    bodies.map((body) => body.includes('"kind":"Table"') || body.includes('"kind": "Table"') || body.includes("PartialObjectMetadataList")),
  )
    .toEqual([true, true, true, true]);
  expect(answers.map((answer) => answer.headers.get("Content-Type"))).toEqual(Array(4).fill("application/json"));
});

test("a watch asking for YAML answers 406 listing the media types that stream (NegotiateOutputMediaTypeStream), in YAML", async () => {
  const answer = await server.request("GET", `${COLLECTION}?watch=true`, { headers: { Accept: "application/yaml" } });
  expectStatus(
    { status: answer.status, body: parse(await answer.text()) },
    406,
    "NotAcceptable",
    "only the following media types are accepted: application/json;stream=watch, application/vnd.kubernetes.protobuf;stream=watch",
  );
});

test("every answer, success or refusal, list, watch or anonymous, says Cache-Control: no-cache, private (WithCacheControl)", async () => {
  const answers = [
    await server.request("GET", COLLECTION),
    await server.request("GET", `${COLLECTION}/missing`),
    await server.request("GET", `${COLLECTION}?watch=true&timeoutSeconds=1`),
    await server.request("GET", COLLECTION, { headers: { Accept: "text/html" } }),
    await server.requestAnonymous("GET", COLLECTION),
  ];
  expect(answers.map((answer) => answer.status)).toEqual([200, 404, 200, 406, 401]);
  for (const answer of answers) {
    expect(answer.headers.get("Cache-Control")).toBe("no-cache, private");
    await answer.arrayBuffer();
  }
});
