/**
 * Hostile request bodies (issue 20) cost bounded work and get kube's 4xx answers: copy-heavy JSON patches,
 * bodies nested past the decoders' depth limits, YAML alias bombs, and one key repeated 200,000 times. Each
 * rejected write changes nothing, and another client is answered while and after the hostile request runs.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { collectionState, createConfigMap, createNamespace, expectStatus, getJson, type Json } from "./_api.ts";
import { startServer, type TestServer } from "./harness.ts";

const NS = "hostile";
const COLLECTION = `/api/v1/namespaces/${NS}/configmaps`;
const TARGET = `${COLLECTION}/target`;
let server: TestServer;

beforeAll(async () => {
  server = await startServer();
  await createNamespace(server, NS);
  await createConfigMap(server, NS, "target", { data: { seed: "x".repeat(100) } });
});
afterAll(async () => {
  await server?.stop();
});

async function send(
  method: string,
  path: string,
  body: string,
  contentType: string,
): Promise<{ status: number; body: Json; headers: Headers }> {
  const response = await server.request(method, path, { body, headers: { "Content-Type": contentType, Accept: "application/json" } });
  return { status: response.status, body: JSON.parse(await response.text()), headers: response.headers };
}

/** Sends the hostile request while another client reads; both must be answered, and the collection must not move. */
async function expectRejectedWhileServing(
  method: string,
  path: string,
  body: string,
  contentType: string,
  code: number,
  reason: string,
  message: string | RegExp,
) {
  const before = await collectionState(server, COLLECTION);
  const [answer, bystander] = await Promise.all([send(method, path, body, contentType), getJson(server, `/api/v1/namespaces/${NS}`)]);
  expectStatus(answer, code, reason, message);
  expect(bystander.metadata.name).toBe(NS);
  expect(await collectionState(server, COLLECTION)).toEqual(before);
  expect((await server.request("GET", "/readyz")).status).toBe(200);
}

const nested = (depth: number, open: string, close: string, inner = "1") => open.repeat(depth) + inner + close.repeat(depth);

test("a JSON patch of doubling copies answers 422 once copies pass 3 MiB (json-patch AccumulatedCopySizeLimit, CVE-2019-1002100)", async () => {
  const doubling = [
    { op: "add", path: "/data/grow", value: "y".repeat(1000) },
    ...Array.from({ length: 24 }, (_, i) => ({ op: "copy", from: i === 0 ? "/data/grow" : `/data/c${i - 1}`, path: `/data/c${i}` })),
  ];
  // Each copy takes the previous copy; sizes stay small, so this one must apply...
  const small = await send("PATCH", TARGET, JSON.stringify(doubling.slice(0, 5)), "application/json-patch+json");
  expect(small.status).toBe(200);
  // ...while copies of a growing list do not.
  const growing = [
    { op: "add", path: "/metadata/annotations", value: { a: "z".repeat(1000) } },
    ...Array.from({ length: 24 }, () => ({ op: "copy", from: "/metadata/annotations", path: "/metadata/annotations/b" })).map((op, i) => ({
      ...op,
      path: `/metadata/annotations/k${i}`,
    })),
    ...Array.from({ length: 24 }, (_, i) => ({ op: "copy", from: "/metadata", path: `/data/m${i}` })),
  ];
  await expectRejectedWhileServing(
    "PATCH",
    TARGET,
    JSON.stringify(growing),
    "application/json-patch+json",
    422,
    "Invalid",
    "the server rejected our request due to an error in our request",
  );
});

test("a JSON patch of more than 10000 operations answers 413 (patch.go maxJSONPatchOperations)", async () => {
  const operations = Array.from({ length: 10001 }, () => ({ op: "test", path: "/kind", value: "ConfigMap" }));
  await expectRejectedWhileServing(
    "PATCH",
    TARGET,
    JSON.stringify(operations),
    "application/json-patch+json",
    413,
    "RequestEntityTooLarge",
    "Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001",
  );
});

test("JSON bodies nested 100000 deep answer 400 with Go's scanner message (encoding/json maxNestingDepth)", async () => {
  const deepObject = `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"deep"},"data":${nested(100000, '{"a":', "}")}}`;
  await expectRejectedWhileServing(
    "POST",
    COLLECTION,
    deepObject,
    "application/json",
    400,
    "BadRequest",
    /json parse error: invalid character '\{' exceeded max depth \(\{"apiVersion"/,
  );
  const deepPatch = `{"data":${nested(100000, "[", "]")}}`;
  for (const contentType of ["application/merge-patch+json", "application/strategic-merge-patch+json"]) {
    await expectRejectedWhileServing(
      "PATCH",
      TARGET,
      deepPatch,
      contentType,
      400,
      "BadRequest",
      /invalid character '\[' exceeded max depth$/,
    );
  }
  await expectRejectedWhileServing(
    "PATCH",
    TARGET,
    `[{"op":"add","path":"/data/x","value":${nested(100000, "[", "]")}}]`,
    "application/json-patch+json",
    400,
    "BadRequest",
    /invalid character '\[' exceeded max depth$/,
  );
});

test("YAML bodies nested 100000 deep answer 400 with go-yaml's message (max_flow_level)", async () => {
  const deep = `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: deep\ndata: ${nested(100000, "[", "]")}\n`;
  await expectRejectedWhileServing(
    "POST",
    COLLECTION,
    deep,
    "application/yaml",
    400,
    "BadRequest",
    /error converting YAML to JSON: yaml: line 5: exceeded max depth of 10000/,
  );
  const applyPatch = `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: target\ndata: ${nested(100000, "{a: ", "}")}\n`;
  await expectRejectedWhileServing(
    "PATCH",
    `${TARGET}?fieldManager=hostile`,
    applyPatch,
    "application/apply-patch+yaml",
    400,
    "BadRequest",
    /yaml: line 5: exceeded max depth of 10000/,
  );
});

test("YAML bodies nested 9,000 deep, past the yaml library's stack, answer 400 in go-yaml's max_flow_level words", async () => {
  for (const [open, close] of [["[", "]"], ["{a: ", "}"]]) {
    const deep = `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: deep\ndata: ${nested(9000, open, close)}\n`;
    await expectRejectedWhileServing(
      "POST",
      COLLECTION,
      deep,
      "application/yaml",
      400,
      "BadRequest",
      /: error converting YAML to JSON: yaml: line 5: exceeded max depth of 10000 \(/,
    );
  }
});

test("a YAML alias bomb answers 400 (go-yaml: document contains excessive aliasing)", async () => {
  const names = "abcdefghi";
  const lines = [
    "apiVersion: v1",
    "kind: ConfigMap",
    "metadata:",
    "  name: bomb",
    "  annotations:",
    '    a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
  ];
  for (let i = 1; i < names.length; i++) lines.push(`    ${names[i]}: &${names[i]} [${Array(9).fill(`*${names[i - 1]}`).join(",")}]`);
  await expectRejectedWhileServing(
    "POST",
    COLLECTION,
    lines.join("\n"),
    "application/yaml",
    400,
    "BadRequest",
    /yaml: document contains excessive aliasing/,
  );
});

test("one key repeated 200,000 times is one warning (sigs.k8s.io/json saveStrictError dedupes) and the write succeeds", async () => {
  const body = `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"repeated"},"data":{${Array(200_000).fill('"k":"v"').join(",")}}}`;
  expect(body.length).toBeGreaterThan(1_500_000);
  const [answer, bystander] = await Promise.all([
    send("POST", COLLECTION, body, "application/json"),
    getJson(server, `/api/v1/namespaces/${NS}`),
  ]);
  expect(answer.status).toBe(201);
  expect(answer.body.data).toEqual({ k: "v" });
  expect(answer.headers.get("warning")).toBe('299 - "duplicate field \\"data.k\\""');
  expect(bystander.metadata.name).toBe(NS);
});

test("distinct unknown and duplicate fields by the thousand keep the Warning header within 4096 runes (WithWarningRecorder)", async () => {
  const unknown = Array.from({ length: 50_000 }, (_, i) => `"unknown${i}":${i}`).join(",");
  const duplicates = Array.from({ length: 50_000 }, (_, i) => `"d${i}":"1","d${i}":"2"`).join(",");
  const body = `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"noisy"},"data":{${duplicates}},${unknown}}`;
  const answer = await send("POST", COLLECTION, body, "application/json");
  expect(answer.status).toBe(201);
  const warnings = answer.headers.get("warning")!;
  expect(warnings).toContain('duplicate field \\"data.d0\\"');
  expect(warnings).toContain('unknown field \\"unknown0\\"');
  expect(warnings.length).toBeLessThan(4096 + 200 * 12);
  const strict = await send("POST", `${COLLECTION}?fieldValidation=Strict`, body.replace('"noisy"', '"strict"'), "application/json");
  expectStatus(strict, 400, "BadRequest", /strict decoding error: /);
  expect(strict.body.message.split(", ")).toHaveLength(100);
});
