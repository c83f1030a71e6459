/** The create handler (k8s.io/apiserver pkg/endpoints/handlers/create.go) through the in-process server. */
import { afterAll, expect, test } from "bun:test";
import { startInProcess } from "../testing.ts";

const server = await startInProcess();
afterAll(() => server.stop());
const configMap = (name: string, extra: Record<string, unknown> = {}) => ({
  apiVersion: "v1",
  kind: "ConfigMap",
  metadata: { name },
  ...extra,
});

test("createHandler: dryRun=All answers 201 with the object as it would be stored, and stores nothing", async () => {
  const created = await server.json("POST", "/api/v1/namespaces/default/configmaps?dryRun=All", { body: configMap("dry") });
  expect(created.status).toBe(201);
  expect(created.body.metadata.uid).toMatch(/^[0-9a-f-]{36}$/);
  expect((await server.request("GET", "/api/v1/namespaces/default/configmaps/dry")).status).toBe(404);
});

test("createHandler: fieldValidation=Strict refuses unknown fields with the strict decoding error and stores nothing", async () => {
  const refused = await server.json("POST", "/api/v1/namespaces/default/configmaps?fieldValidation=Strict", {
    body: configMap("strict", { surprise: true }),
  });
  expect(refused.status).toBe(400);
  expect(refused.body.message).toBe(
    'ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "surprise"',
  );
  expect((await server.request("GET", "/api/v1/namespaces/default/configmaps/strict")).status).toBe(404);
});

test("createHandler: fieldValidation=Warn (the default) stores the object and warns about the unknown field", async () => {
  const response = await server.request("POST", "/api/v1/namespaces/default/configmaps", { body: configMap("warned", { surprise: true }) });
  expect(response.status).toBe(201);
  expect(response.headers.get("warning")).toBe('299 - "unknown field \\"surprise\\""');
});

test("createHandler: a name already taken is kube's 409 AlreadyExists", async () => {
  await server.request("POST", "/api/v1/namespaces/default/configmaps", { body: configMap("taken") });
  const again = await server.json("POST", "/api/v1/namespaces/default/configmaps", { body: configMap("taken") });
  expect(again.status).toBe(409);
  expect(again.body).toMatchObject({ reason: "AlreadyExists", message: 'configmaps "taken" already exists' });
});

test("createHandler: compact JSON is the written text with resourceVersion leading metadata, as parsing and serializing it again writes it", async () => {
  const body = configMap("stored-text", {
    metadata: { name: "stored-text", annotations: { note: 'é \u2028 "quoted"' } },
    data: { n: "1" },
  });
  const created = await server.request("POST", "/api/v1/namespaces/default/configmaps", { body });
  expect(created.status).toBe(201);
  expect(created.headers.get("content-type")).toBe("application/json");
  const text = await created.text();
  const pretty = await (await server.request("GET", "/api/v1/namespaces/default/configmaps/stored-text?pretty=true")).text();
  expect(text).toBe(`${JSON.stringify(JSON.parse(pretty))}\n`);
  expect(Object.keys(JSON.parse(text).metadata)[0]).toBe("resourceVersion");
});

test("createHandler: a pretty or YAML answer is written from the object read back", async () => {
  const pretty = await server.request("POST", "/api/v1/namespaces/default/configmaps?pretty=true", { body: configMap("pretty") });
  expect(pretty.status).toBe(201);
  const text = await pretty.text();
  expect(text).toBe(`${JSON.stringify(JSON.parse(text), null, 2)}\n`);
  const yaml = await server.request("POST", "/api/v1/namespaces/default/configmaps", {
    body: configMap("yaml"),
    headers: { Accept: "application/yaml" },
  });
  expect([yaml.status, yaml.headers.get("content-type")]).toEqual([201, "application/yaml"]);
  expect(await yaml.text()).toContain("name: yaml");
});
