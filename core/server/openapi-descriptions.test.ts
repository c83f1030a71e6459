import { expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { builtInCatalog } from "../registry/catalog.ts";
import { createOpenApiHandler } from "./openapi.ts";
import { describedSchema, descriptionsOf, loadDescriptions } from "./openapi-descriptions.ts";

// deno-lint-ignore no-explicit-any
type Json = Record<string, any>;

const V2_DOCUMENT = {
  swagger: "2.0",
  definitions: {
    "io.k8s.api.core.v1.ConfigMap": {
      description: "Settings a pod reads.",
      properties: {
        data: { description: "Text values by key.", type: "object", additionalProperties: { type: "string" } },
        metadata: { $ref: "#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta", description: "The usual metadata." },
      },
    },
    "io.k8s.api.core.v1.PodSpec": {
      properties: {
        containers: { type: "array", items: { $ref: "#/definitions/io.k8s.api.core.v1.Container" }, description: "What runs." },
      },
    },
  },
};

test("descriptionsOf() reads OpenAPI v2 definitions and v3 components.schemas, down to nested fields", () => {
  const fromV2 = descriptionsOf(V2_DOCUMENT);
  expect(fromV2.get("io.k8s.api.core.v1.ConfigMap")).toEqual({
    description: "Settings a pod reads.",
    properties: { data: { description: "Text values by key." }, metadata: { description: "The usual metadata." } },
  });
  const fromV3 = descriptionsOf({
    openapi: "3.0.0",
    components: {
      schemas: { X: { description: "x", properties: { a: { allOf: [{ $ref: "#/components/schemas/Y" }], description: "a" } } } },
    },
  });
  expect(fromV3.get("X")).toEqual({ description: "x", properties: { a: { description: "a" } } });
  expect(() => descriptionsOf({ paths: {} })).toThrow("has neither definitions (OpenAPI v2) nor components.schemas (OpenAPI v3)");
});

test("describedSchema() puts descriptions first, keeps a schema's own, and leaves unknown fields alone", () => {
  const schema = { type: "object" as const, properties: { data: { type: "object" as const }, other: { type: "string" as const } } };
  const described = describedSchema(schema, { description: "top", properties: { data: { description: "inner" } } }) as Json;
  expect(Object.keys(described)).toEqual(["description", "type", "properties"]);
  expect(described.properties).toEqual({ data: { description: "inner", type: "object" }, other: { type: "string" } });
  expect((describedSchema({ ...schema, description: "own" } as never, { description: "theirs" }) as Json).description).toBe("own");
});

test("loadDescriptions() names the file it cannot use", () => {
  const dir = mkdtempSync(join(tmpdir(), "kubun-descriptions-"));
  writeFileSync(join(dir, "bad.json"), "{}");
  expect(() => loadDescriptions([join(dir, "bad.json")])).toThrow(`--openapi-descriptions ${join(dir, "bad.json")}: has neither`);
});

test("the served /openapi/v2 (JSON and protobuf) and /openapi/v3 documents carry the supplied descriptions", async () => {
  const handler = createOpenApiHandler(builtInCatalog(), { descriptions: descriptionsOf(V2_DOCUMENT) });
  const request = (path: string, accept?: string) =>
    handler(new Request(`https://127.0.0.1${path}`, { headers: accept ? { Accept: accept } : {} }));
  const v2 = await (await request("/openapi/v2"))!.json() as Json;
  expect(v2.definitions["io.k8s.api.core.v1.ConfigMap"].description).toBe("Settings a pod reads.");
  expect(v2.definitions["io.k8s.api.core.v1.ConfigMap"].properties.metadata).toEqual({
    description: "The usual metadata.",
    $ref: "#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta",
  });
  expect(v2.definitions["io.k8s.api.core.v1.Pod"].description).toBeUndefined();
  const v3 = await (await request("/openapi/v3/api/v1"))!.json() as Json;
  expect(v3.components.schemas["io.k8s.api.core.v1.PodSpec"].properties.containers.description).toBe("What runs.");
  const protobuf = new Uint8Array(
    await (await request("/openapi/v2", "application/com.github.proto-openapi.spec.v2@v1.0+protobuf"))!.arrayBuffer(),
  );
  expect(new TextDecoder().decode(protobuf)).toContain("Text values by key.");
});
