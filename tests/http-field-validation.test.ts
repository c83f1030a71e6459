/** fieldValidation (spec 4.7) and schema type checks over HTTP: Ignore, Warn, Strict, duplicates, wrong types. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createNamespace, expectStatus, getJson, type Json, sendJson, warningsOf } from "./_api.ts";
import { startServer, type TestServer } from "./harness.ts";

const NS = "fields";
const DEPLOYMENTS = `/apis/apps/v1/namespaces/${NS}/deployments`;
let server: TestServer;

beforeAll(async () => {
  server = await startServer();
  await createNamespace(server, NS);
});
afterAll(async () => {
  await server?.stop();
});

function deployment(name: string, specExtra: Record<string, unknown> = {}, containerExtra: Record<string, unknown> = {}): Json {
  return {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name },
    spec: {
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: "c", image: "nginx", ...containerExtra }] } },
      ...specExtra,
    },
  };
}

async function post(body: Json | string, query: string): Promise<{ status: number; body: Json; warnings: string[] }> {
  const response = await server.request("POST", `${DEPLOYMENTS}${query}`, {
    body: typeof body === "string" ? body : JSON.stringify(body),
    headers: { "Content-Type": "application/json", Accept: "application/json" },
  });
  return { status: response.status, body: await response.json(), warnings: warningsOf(response.headers) };
}

test("fieldValidation=Ignore stores the object without its unknown fields and says nothing", async () => {
  const answer = await post(deployment("ignored", { x: 1 }, { bar: true }), "?fieldValidation=Ignore");
  expect(answer.status).toBe(201);
  expect(answer.warnings).toEqual([]);
  const stored = await getJson(server, `${DEPLOYMENTS}/ignored`);
  expect(stored.spec.x).toBeUndefined();
  expect(stored.spec.template.spec.containers[0].bar).toBeUndefined();
});

test("fieldValidation=Warn (the default) warns once per unknown field and stores the object without them", async () => {
  for (const [name, query] of [["warned", "?fieldValidation=Warn"], ["defaulted", ""]]) {
    const answer = await post(deployment(name, { x: 1 }, { bar: true }), query);
    expect({ name, status: answer.status }).toEqual({ name, status: 201 });
    expect(answer.warnings).toEqual(['unknown field "spec.template.spec.containers[0].bar"', 'unknown field "spec.x"']);
    const stored = await getJson(server, `${DEPLOYMENTS}/${name}`);
    expect(stored.spec.x).toBeUndefined();
    expect(stored.spec.template.spec.containers[0].bar).toBeUndefined();
  }
});

test("fieldValidation=Strict refuses unknown fields with a 400 listing each of them and stores nothing", async () => {
  const answer = await post(deployment("strict", { x: 1 }, { bar: true }), "?fieldValidation=Strict");
  expectStatus(
    answer,
    400,
    "BadRequest",
    'Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.template.spec.containers[0].bar", unknown field "spec.x"',
  );
  expect((await sendJson(server, "GET", `${DEPLOYMENTS}/strict`)).status).toBe(404);
});

test("fieldValidation=Strict lists unknown and duplicate fields together in document order", async () => {
  const body = '{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"dup","name":"dup","unknownMeta":1},' +
    '"spec":{"paused":true,"paused":false,"x":1,"selector":{"matchLabels":{"app":"d"}},' +
    '"template":{"metadata":{"labels":{"app":"d"}},"spec":{"containers":[{"name":"c","image":"i","bar":1}]}}}}';
  const answer = await post(body, "?fieldValidation=Strict");
  expectStatus(
    answer,
    400,
    "BadRequest",
    'Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: duplicate field "metadata.name", unknown field "metadata.unknownMeta", duplicate field "spec.paused", ' +
      'unknown field "spec.x", unknown field "spec.template.spec.containers[0].bar"',
  );
});

test("duplicate fields are warnings under Warn and silent under Ignore", async () => {
  const body = (name: string) =>
    `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"${name}"},"spec":{"paused":true,"paused":false,` +
    `"selector":{"matchLabels":{"app":"d"}},"template":{"metadata":{"labels":{"app":"d"}},"spec":{"containers":[{"name":"c","image":"i"}]}}}}`;
  const warned = await post(body("dup-warn"), "");
  expect(warned.status).toBe(201);
  expect(warned.warnings).toEqual(['duplicate field "spec.paused"']);
  expect(warned.body.spec.paused).toBe(false);
  const ignored = await post(body("dup-ignore"), "?fieldValidation=Ignore");
  expect(ignored.status).toBe(201);
  expect(ignored.warnings).toEqual([]);
});

test("an update with an unknown field warns by default and is refused under Strict", async () => {
  const created = (await post(deployment("updated"), "")).body;
  const changed = { ...created, spec: { ...created.spec, surprise: 1 } };
  const strict = await server.request("PUT", `${DEPLOYMENTS}/updated?fieldValidation=Strict`, {
    body: JSON.stringify(changed),
    headers: { "Content-Type": "application/json" },
  });
  expectStatus(
    { status: strict.status, body: await strict.json() },
    400,
    "BadRequest",
    'Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.surprise"',
  );
  const warned = await server.request("PUT", `${DEPLOYMENTS}/updated`, {
    body: JSON.stringify(changed),
    headers: { "Content-Type": "application/json" },
  });
  expect(warned.status).toBe(200);
  expect(warningsOf(warned.headers)).toEqual(['unknown field "spec.surprise"']);
  expect((await warned.json()).spec.surprise).toBeUndefined();
});

test("a value of the wrong JSON type is a 400 naming the Go struct field and its type, whatever fieldValidation says", async () => {
  for (const query of ["", "?fieldValidation=Ignore"]) {
    const answer = await post(deployment("typed", { replicas: "x" }), query);
    expectStatus(
      answer,
      400,
      "BadRequest",
      'Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32',
    );
  }
  const quantity = await post(deployment("typed", {}, { resources: { limits: { cpu: "lots" } } }), "");
  expectStatus(quantity, 400, "BadRequest", /cannot be handled as a Deployment: quantities must match the regular expression/);
});

test("an unknown fieldValidation value is a 422 from ValidateCreateOptions (ValidateFieldValidation) and creates nothing", async () => {
  const answer = await post(deployment("bad-directive"), "?fieldValidation=Loose");
  expectStatus(
    answer,
    422,
    "Invalid",
    'CreateOptions.meta.k8s.io "" is invalid: fieldValidation: Unsupported value: "Loose": supported values: "", "Ignore", "Strict", "Warn"',
  );
  expect((await server.request("GET", `${DEPLOYMENTS}/bad-directive`)).status).toBe(404);
});

test("quantities are stored and answered in kube's canonical form", async () => {
  const body = deployment("quantities");
  body.spec.template.spec.containers[0].resources = { requests: { cpu: 0.25, memory: "2048Mi" } };
  const created = await post(JSON.stringify(body), "");
  expect(created.status).toBe(201);
  const stored = await getJson(server, `${DEPLOYMENTS}/quantities`);
  expect(stored.spec.template.spec.containers[0].resources.requests).toEqual({ cpu: "250m", memory: "2Gi" });
});

test("a '__proto__' member in a merge, strategic or JSON patch is an unknown field kube warns about and drops, never fields of the object", async () => {
  const path = `/api/v1/namespaces/${NS}/configmaps`;
  expect((await sendJson(server, "POST", path, { metadata: { name: "proto-patched" } })).status).toBe(201);
  const patches: [string, unknown][] = [
    ["application/merge-patch+json", JSON.parse('{"metadata":{"__proto__":{"labels":{"q":"1"},"finalizers":["a/b"]}}}')],
    ["application/strategic-merge-patch+json", JSON.parse('{"metadata":{"__proto__":{"annotations":{"s":"1"}}}}')],
    ["application/json-patch+json", [{ op: "add", path: "/metadata/__proto__", value: { labels: { j: "1" } } }]],
  ];
  for (const [contentType, patch] of patches) {
    const patched = await sendJson(server, "PATCH", `${path}/proto-patched`, patch, contentType);
    expect(patched.status).toBe(200);
    expect(warningsOf(patched.headers)).toEqual(['unknown field "metadata.__proto__"']);
  }
  const stored = await getJson(server, `${path}/proto-patched`);
  expect([stored.metadata.labels, stored.metadata.annotations, stored.metadata.finalizers]).toEqual([undefined, undefined, undefined]);
});
