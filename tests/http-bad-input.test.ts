/** Bad requests get kube's 4xx answers, and a rejected write changes nothing. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { collectionState, configMap, createConfigMap, createNamespace, expectStatus, sendJson } from "./_api.ts";
import { startServer, type TestServer } from "./harness.ts";

const NS = "bad";
const COLLECTION = `/api/v1/namespaces/${NS}/configmaps`;
const MAX_REQUEST_BYTES = 65536;
let server: TestServer;

beforeAll(async () => {
  server = await startServer(["--max-request-bytes", String(MAX_REQUEST_BYTES)]);
  await createNamespace(server, NS);
  await createConfigMap(server, NS, "existing");
});
afterAll(async () => {
  await server?.stop();
});

async function send(method: string, path: string, body: string, contentType = "application/json") {
  const response = await server.request(method, path, { body, headers: { "Content-Type": contentType, Accept: "application/json" } });
  const text = await response.text();
  return { status: response.status, body: JSON.parse(text) };
}

/** Runs a write that must fail, and checks the collection's resourceVersion and items did not move. */
async function expectRejectedWithoutChange(
  write: () => Promise<{ status: number; body: unknown }>,
  code: number,
  reason: string,
  message?: string | RegExp,
) {
  const before = await collectionState(server, COLLECTION);
  expectStatus(await write(), code, reason, message);
  expect(await collectionState(server, COLLECTION)).toEqual(before);
}

const existingBody = (override: object) => JSON.stringify({ ...configMap(NS, "existing"), ...override });

test("malformed JSON answers 400 and changes nothing", async () => {
  await expectRejectedWithoutChange(
    () => send("POST", COLLECTION, '{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {'),
    400,
    "BadRequest",
  );
});

test("malformed YAML answers 400 and changes nothing", async () => {
  await expectRejectedWithoutChange(
    () => send("POST", COLLECTION, "apiVersion: v1\nkind: ConfigMap\nmetadata: [name: x\n", "application/yaml"),
    400,
    "BadRequest",
  );
});

test("a create or update body that is not an object answers transformDecodeError with Interpret's error, and changes nothing", async () => {
  const typeMeta =
    'Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';
  const unrecognized = (jsonKind: string, summary: string) =>
    `the object provided is unrecognized (must be of type ConfigMap): couldn't get version/kind; json parse error: json: cannot unmarshal ${jsonKind} into ${typeMeta} (${summary})`;
  const cases: [string, string, string, string][] = [
    ["POST", COLLECTION, '"text"', unrecognized("string", "227465787422")],
    ["POST", COLLECTION, "[1]", unrecognized("array", "5b315d")],
    ["PUT", `${COLLECTION}/existing`, "7", unrecognized("number", "37")],
  ];
  for (const [method, path, body, message] of cases) {
    await expectRejectedWithoutChange(() => send(method, path, body), 400, "BadRequest", message);
    await expectRejectedWithoutChange(() => send(method, path, body, "application/yaml"), 400, "BadRequest", message);
  }
});

test("a JSON null or a YAML body without a document is an empty object, as kube's decoder reads it: a create lacks a name (422), an update is undeterminable (400)", async () => {
  for (const [body, contentType] of [["null", "application/json"], ["", "application/yaml"], ["# only a comment\n", "application/yaml"]]) {
    await expectRejectedWithoutChange(
      () => send("POST", COLLECTION, body, contentType),
      422,
      "Invalid",
      'ConfigMap "" is invalid: metadata.name: Required value: name or generateName is required',
    );
    await expectRejectedWithoutChange(
      () => send("PUT", `${COLLECTION}/existing`, body, contentType),
      400,
      "BadRequest",
      "the name of the object (existing based on URL) was undeterminable: name must be provided",
    );
  }
});

test("an update or a patch that leaves the object without a name answers checkName's 400 and changes nothing", async () => {
  await expectRejectedWithoutChange(
    () => send("PUT", `${COLLECTION}/existing`, existingBody({ metadata: { namespace: NS } })),
    400,
    "BadRequest",
    "the name of the object (existing based on URL) was undeterminable: name must be provided",
  );
  await expectRejectedWithoutChange(
    () => send("PATCH", `${COLLECTION}/existing`, '[{"op":"remove","path":"/metadata/name"}]', "application/json-patch+json"),
    400,
    "BadRequest",
    "the name of the object (existing based on URL) was undeterminable: name must be provided",
  );
});

test("server-side apply of a configuration without a name creates nothing (kube's patcher checkName, 400) but still applies to an existing object", async () => {
  const apply = (name: string, data: string) =>
    send(
      "PATCH",
      `${COLLECTION}/${name}?fieldManager=bad-input`,
      `apiVersion: v1\nkind: ConfigMap\ndata:\n  applied: ${data}\n`,
      "application/apply-patch+yaml",
    );
  await expectRejectedWithoutChange(
    () => apply("unnamed", "a"),
    400,
    "BadRequest",
    "the name of the object (unnamed based on URL) was undeterminable: name must be provided",
  );
  const applied = await apply("existing", "b");
  expect([applied.status, applied.body.metadata.name, applied.body.data.applied]).toEqual([200, "existing", "b"]);
});

test("an apply body that is not an object answers applyPatcher's decoding errors; null or no document is an object without apiVersion", async () => {
  const apply = (body: string) => send("PATCH", `${COLLECTION}/existing?fieldManager=bad-input`, body, "application/apply-patch+yaml");
  const notAMap = (jsonKind: string) =>
    `error decoding YAML: error unmarshaling JSON: while decoding JSON: json: cannot unmarshal ${jsonKind} into Go value of type map[string]interface {}`;
  await expectRejectedWithoutChange(() => apply('"#<Kubeclient::Resource data={}>"'), 400, "BadRequest", notAMap("string"));
  await expectRejectedWithoutChange(() => apply("- a\n- b\n"), 400, "BadRequest", notAMap("array"));
  await expectRejectedWithoutChange(
    () => apply("a: [\n"),
    400,
    "BadRequest",
    /^error decoding YAML: error converting YAML to JSON: yaml: line /,
  );
  for (const body of ["", "null", "# nothing\n"]) {
    await expectRejectedWithoutChange(
      () => apply(body),
      400,
      "BadRequest",
      "Incorrect version specified in apply patch. Specified patch version: , expected: v1",
    );
  }
});

test("a body of another kind answers 400 and changes nothing", async () => {
  const secret = JSON.stringify({ apiVersion: "v1", kind: "Secret", metadata: { name: "wrong-kind" } });
  await expectRejectedWithoutChange(
    () => send("POST", COLLECTION, secret),
    400,
    "BadRequest",
    /Secret in version "v1" cannot be handled as a ConfigMap/,
  );
});

test("a body of another apiVersion answers 400 and changes nothing", async () => {
  const body = JSON.stringify({ apiVersion: "apps/v1", kind: "ConfigMap", metadata: { name: "wrong-version" } });
  await expectRejectedWithoutChange(() => send("POST", COLLECTION, body), 400, "BadRequest");
});

test("a PUT whose body names another object answers 400 and changes nothing", async () => {
  await expectRejectedWithoutChange(
    () => send("PUT", `${COLLECTION}/existing`, existingBody({ metadata: { name: "other", namespace: NS } })),
    400,
    "BadRequest",
    "the name of the object (other) does not match the name on the URL (existing)",
  );
});

test("a body in another namespace than the URL answers 400 and changes nothing", async () => {
  await expectRejectedWithoutChange(
    () => send("POST", COLLECTION, JSON.stringify(configMap("elsewhere", "moved"))),
    400,
    "BadRequest",
    "the namespace of the provided object does not match the namespace sent on the request",
  );
});

test("an invalid object answers 422 Invalid and changes nothing", async () => {
  await expectRejectedWithoutChange(
    () => send("POST", COLLECTION, JSON.stringify(configMap(NS, "Not_A_Valid_Name"))),
    422,
    "Invalid",
    /^ConfigMap "Not_A_Valid_Name" is invalid: metadata\.name: Invalid value: "Not_A_Valid_Name": a lowercase RFC 1123 subdomain/,
  );
});

test("a body over --max-request-bytes answers 413 and changes nothing", async () => {
  const huge = JSON.stringify(configMap(NS, "huge", { data: { blob: "x".repeat(MAX_REQUEST_BYTES) } }));
  await expectRejectedWithoutChange(
    () => send("POST", COLLECTION, huge),
    413,
    "RequestEntityTooLarge",
    `Request entity too large: limit is ${MAX_REQUEST_BYTES}`,
  );
});

test("a body over --max-request-bytes from a client without credentials answers 401: kube reads the body in its handlers (limitedReadBody), after WithAuthentication", async () => {
  const huge = JSON.stringify(configMap(NS, "huge", { data: { blob: "x".repeat(MAX_REQUEST_BYTES) } }));
  const response = await server.requestAnonymous("POST", COLLECTION, {
    body: huge,
    headers: { "Content-Type": "application/json", Accept: "application/json" },
  });
  expectStatus({ status: response.status, body: await response.json() }, 401, "Unauthorized", "Unauthorized");
});

test("an unknown resource answers 404 with kube's generic message", async () => {
  for (const path of ["/api/v1/namespaces/bad/widgets", "/apis/apps/v1/widgets", "/apis/nope.example.com/v1/things"]) {
    const answer = await sendJson(server, "GET", path);
    expectStatus(answer, 404, "NotFound", "the server could not find the requested resource");
  }
});

test("bad query values answer 400", async () => {
  for (const query of ["limit=abc", "labelSelector=a%20in%20(", "fieldSelector=unknown.field%3Dx", "timeoutSeconds=soon"]) {
    const answer = await sendJson(server, "GET", `${COLLECTION}?${query}`);
    expect({ query, status: answer.status, reason: answer.body?.reason }).toEqual({ query, status: 400, reason: "BadRequest" });
  }
});

test("a request without a client certificate answers 401 Unauthorized", async () => {
  const response = await server.requestAnonymous("GET", COLLECTION, { headers: { Accept: "application/json" } });
  expectStatus({ status: response.status, body: await response.json() }, 401, "Unauthorized", "Unauthorized");
});

test("an unsupported Accept type alone answers 406; with a JSON fallback the answer is JSON", async () => {
  const unsupportedOnly = await server.request("GET", COLLECTION, { headers: { Accept: "application/xml" } });
  expect(unsupportedOnly.status).toBe(406);
  expect(await unsupportedOnly.json()).toMatchObject({ kind: "Status", code: 406, reason: "NotAcceptable" });

  const withFallback = await server.request("GET", COLLECTION, { headers: { Accept: "application/xml, application/json" } });
  expect(withFallback.status).toBe(200);
  expect(withFallback.headers.get("Content-Type")).toStartWith("application/json");
  expect(await withFallback.json()).toMatchObject({ kind: "ConfigMapList" });
});

test("protobuf is served for built-in kinds, as kube-apiserver does", async () => {
  const protobuf = await server.request("GET", COLLECTION, { headers: { Accept: "application/vnd.kubernetes.protobuf" } });
  expect(protobuf.status).toBe(200);
  expect(protobuf.headers.get("Content-Type")).toBe("application/vnd.kubernetes.protobuf");
  expect([...new Uint8Array(await protobuf.arrayBuffer()).slice(0, 4)]).toEqual([0x6b, 0x38, 0x73, 0x00]);
});

test("an unsupported Content-Type answers 415 and changes nothing", async () => {
  await expectRejectedWithoutChange(
    () => send("POST", COLLECTION, "name=x", "application/x-www-form-urlencoded"),
    415,
    "UnsupportedMediaType",
  );
});
