import { expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { API_DATA_DIR, openApiV3File } from "../../scripts/gen-schemas.ts";
import { builtInCatalog } from "../registry/catalog.ts";
import { builtInSchemas } from "../schema/lookup.ts";
import { documentKeys, documentSource } from "./openapi-documents.ts";
import { v3Document, v3Schema } from "./openapi-v3.ts";

type Json = Record<string, unknown>;

/** Upstream text without prose, keys sorted, and nested plain refs wrapped as our documents wrap every ref. */
function comparable(value: unknown, inSchema = false): unknown {
  if (Array.isArray(value)) return value.map((entry) => comparable(entry, inSchema));
  if (value === null || typeof value !== "object") return value;
  const object = value as Json;
  if (inSchema && typeof object.$ref === "string" && Object.keys(object).length === 1) return { allOf: [object] };
  const entries = Object.entries(object)
    .filter(([key, field]) => !(key === "description" && typeof field === "string"))
    .map(([key, field]) => [key, comparable(field, inSchema && key !== "allOf")] as const)
    .sort(([a], [b]) => (a < b ? -1 : 1));
  return Object.fromEntries(entries);
}

function comparableSchemas(document: Json): unknown {
  return comparable((document.components as { schemas: Json }).schemas, true);
}

test("each built-in group/version document matches kube 1.26's paths and schemas, descriptions aside", () => {
  if (!existsSync(API_DATA_DIR)) {
    console.log("OpenAPI comparison skipped: ../shared/k8s-api-1.26 is absent");
    return;
  }
  const catalog = builtInCatalog();
  // apiregistration's data comes from a later build; policy/v1beta1 and authentication.k8s.io/v1beta1 are hand-written.
  const handWritten = new Set(["apis/policy/v1beta1", "apis/authentication.k8s.io/v1beta1"]);
  const keys = documentKeys(catalog).filter((key) =>
    /^(api\/|apis\/[^/]+\/)/.test(key) && !key.includes("apiregistration") && !handWritten.has(key)
  );
  expect(keys.length).toBeGreaterThan(15);
  for (const key of keys) {
    const [group, version] = key.startsWith("api/") ? ["", key.slice(4)] : key.slice(5).split("/");
    const upstream = JSON.parse(readFileSync(API_DATA_DIR + openApiV3File(group, version), "utf8"));
    const ours = v3Document(documentSource(catalog, builtInSchemas, key)!.paths, builtInSchemas.definitions);
    expect({ key, paths: comparable(ours.paths) }).toEqual({ key, paths: comparable(upstream.paths) });
    expect({ key, schemas: comparableSchemas(ours) }).toEqual({ key, schemas: comparableSchemas(upstream) });
  }
});

test("v3Schema() wraps refs in allOf beside their siblings and leaves scalars alone", () => {
  expect(v3Schema({
    type: "object",
    properties: {
      selector: { ref: "a.Selector" },
      items: { type: "array", items: { ref: "a.Item", default: {} } },
      labels: { type: "object", additionalProperties: { type: "string", default: "" } },
    },
  })).toEqual({
    type: "object",
    properties: {
      selector: { allOf: [{ $ref: "#/components/schemas/a.Selector" }] },
      items: { type: "array", items: { allOf: [{ $ref: "#/components/schemas/a.Item" }], default: {} } },
      labels: { type: "object", additionalProperties: { type: "string", default: "" } },
    },
  });
});

test("v3Document() reports a definition the operations need but the schemas lack", () => {
  const catalog = builtInCatalog();
  const source = documentSource(catalog, builtInSchemas, "apis/apps/v1")!;
  const { ["io.k8s.api.apps.v1.Deployment"]: _removed, ...rest } = source.definitions;
  expect(() => v3Document(source.paths, rest)).toThrow("io.k8s.api.apps.v1.Deployment");
});
