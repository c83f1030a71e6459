// deno-lint-ignore-file no-explicit-any -- decoded JSON is read by path in assertions
import { expect, test } from "bun:test";
import { builtInCatalog } from "../registry/catalog.ts";
import type { ResourceType } from "../api/resource-type.ts";
import { createOpenApiHandler, documentHash } from "./openapi.ts";

type Json = Record<string, any>;

async function get(handler: ReturnType<typeof createOpenApiHandler>, path: string, headers: Record<string, string> = {}) {
  const response = await handler(new Request(`https://127.0.0.1${path}`, { headers }));
  if (!response) throw new Error(`${path} was not handled`);
  return response;
}

async function json(handler: ReturnType<typeof createOpenApiHandler>, path: string): Promise<Json> {
  const response = await get(handler, path);
  expect(response.status).toBe(200);
  return await response.json();
}

const WIDGETS: ResourceType = {
  group: "example.com",
  version: "v1",
  resource: "widgets",
  singularName: "widget",
  kind: "Widget",
  listKind: "WidgetList",
  namespaced: true,
  shortNames: [],
  categories: [],
  verbs: ["create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"],
  subresources: [],
};

/** Every "$ref" reference inside a document (JSONSchemaProps also has a property named "$ref": not a string). */
function refsOf(document: unknown): string[] {
  const refs: string[] = [];
  JSON.stringify(document, (key, value) => {
    if (key === "$ref" && typeof value === "string") refs.push(value);
    return value;
  });
  return refs;
}

test("the v3 index lists every served group/version, its group and the roots, each with its document's hash", async () => {
  const catalog = builtInCatalog();
  const handler = createOpenApiHandler(catalog);
  const index = await json(handler, "/openapi/v3");
  const keys = Object.keys(index.paths);
  for (const type of catalog.all()) {
    if (type.group === "") expect(keys).toContain(`api/${type.version}`);
    else expect(keys).toContain(`apis/${type.group}/${type.version}`);
  }
  expect(keys).toContain("api");
  expect(keys).toContain("apis");
  expect(keys).toContain("apis/apps");
  expect(keys).toContain("apis/policy/v1beta1");
  const appsUrl: string = index.paths["apis/apps/v1"].serverRelativeURL;
  const appsBody = await (await get(handler, appsUrl)).text();
  expect(appsUrl).toBe(`/openapi/v3/apis/apps/v1?hash=${documentHash(appsBody)}`);
  expect(documentHash(appsBody)).toMatch(/^[0-9A-F]{128}$/);
});

test("the apps/v1 document offers fieldValidation on deployment create, replace and patch", async () => {
  const document = await json(createOpenApiHandler(builtInCatalog()), "/openapi/v3/apis/apps/v1");
  const collection = document.paths["/apis/apps/v1/namespaces/{namespace}/deployments"];
  const item = document.paths["/apis/apps/v1/namespaces/{namespace}/deployments/{name}"];
  expect(collection.post.operationId).toBe("createAppsV1NamespacedDeployment");
  for (const operation of [collection.post, item.put, item.patch]) {
    expect(operation.parameters.map((parameter: Json) => parameter.name)).toContain("fieldValidation");
    expect(operation["x-kubernetes-group-version-kind"]).toEqual({ group: "apps", kind: "Deployment", version: "v1" });
  }
  expect(Object.keys(item.patch.requestBody.content)).toContain("application/apply-patch+yaml");
  expect(
    document.paths["/apis/apps/v1/namespaces/{namespace}/deployments/{name}/scale"].get.responses["200"]
      .content["application/json"].schema,
  ).toEqual({ $ref: "#/components/schemas/io.k8s.api.autoscaling.v1.Scale" });
  expect(document.components.schemas["io.k8s.api.apps.v1.DeploymentSpec"].properties.strategy).toEqual({
    allOf: [{ $ref: "#/components/schemas/io.k8s.api.apps.v1.DeploymentStrategy" }],
    default: {},
    "x-kubernetes-patch-strategy": "retainKeys",
  });
});

test("every $ref in every served document resolves inside that document", async () => {
  const handler = createOpenApiHandler(builtInCatalog());
  const index = await json(handler, "/openapi/v3");
  for (const entry of Object.values(index.paths) as Json[]) {
    const document = await json(handler, entry.serverRelativeURL);
    const schemas = document.components?.schemas ?? {};
    const unresolved = refsOf(document).filter((ref) => !(ref.replace("#/components/schemas/", "") in schemas));
    expect({ url: entry.serverRelativeURL, unresolved }).toEqual({ url: entry.serverRelativeURL, unresolved: [] });
  }
  const v2 = await json(handler, "/openapi/v2");
  expect(refsOf(v2).filter((ref) => !(ref.replace("#/definitions/", "") in v2.definitions))).toEqual([]);
});

test("hashes stay the same between requests and change when the catalog gains a type", async () => {
  const catalog = builtInCatalog();
  const handler = createOpenApiHandler(catalog);
  const first = await json(handler, "/openapi/v3");
  expect(await json(handler, "/openapi/v3")).toEqual(first);
  expect(first.paths["apis/example.com/v1"]).toBeUndefined();
  catalog.add({ ...WIDGETS, verbs: ["get", "list"] });
  const second = await json(handler, "/openapi/v3");
  expect(second.paths["apis/apps/v1"]).toEqual(first.paths["apis/apps/v1"]);
  const widgetsUrl: string = second.paths["apis/example.com/v1"].serverRelativeURL;
  catalog.add(WIDGETS);
  const third = await json(handler, "/openapi/v3");
  expect(third.paths["apis/example.com/v1"].serverRelativeURL).not.toBe(widgetsUrl);
  const widgets = await json(handler, third.paths["apis/example.com/v1"].serverRelativeURL);
  expect(widgets.paths["/apis/example.com/v1/namespaces/{namespace}/widgets"].post.operationId)
    .toBe("createExampleComV1NamespacedWidget");
  expect(widgets.components.schemas["com.example.v1.Widget"]["x-kubernetes-preserve-unknown-fields"]).toBe(true);
  expect(Object.keys(widgets.paths["/apis/example.com/v1/widgets"].get.responses["200"].content))
    .toEqual(["application/json", "application/json;stream=watch", "application/yaml"]);
});

test("a request with the current hash is cacheable forever, a stale hash redirects, no hash is not cached", async () => {
  const handler = createOpenApiHandler(builtInCatalog());
  const url: string = (await json(handler, "/openapi/v3")).paths["api/v1"].serverRelativeURL;
  const pinned = await get(handler, url);
  expect(pinned.headers.get("cache-control")).toBe("public, immutable");
  expect(Date.parse(pinned.headers.get("expires")!)).toBeGreaterThan(Date.now() + 300 * 24 * 3600 * 1000);
  const etag = pinned.headers.get("etag")!;
  expect(etag).toBe(`"${url.split("hash=")[1]}"`);
  const stale = await get(handler, "/openapi/v3/api/v1?hash=ABC");
  expect(stale.status).toBe(301);
  expect(stale.headers.get("location")).toBe(url);
  const unpinned = await get(handler, "/openapi/v3/api/v1");
  expect(unpinned.headers.get("cache-control")).toBe("no-cache, private");
  expect((await get(handler, url, { "If-None-Match": etag })).status).toBe(304);
});

test("unknown documents answer 404, unservable Accept lists 406 and other paths are left alone", async () => {
  const handler = createOpenApiHandler(builtInCatalog());
  expect((await get(handler, "/openapi/v3/apis/nosuch.group/v1")).status).toBe(404);
  expect((await get(handler, "/openapi/v2", { Accept: "text/html" })).status).toBe(406);
  expect((await get(handler, "/openapi/v3", { Accept: "application/com.github.proto-openapi.spec.v2@v1.0+protobuf" })).status).toBe(406);
  expect(await handler(new Request("https://127.0.0.1/api/v1"))).toBeNull();
});

test("/openapi/v2 answers the first of JSON or gnostic protobuf in the Accept list, each with its own ETag", async () => {
  const handler = createOpenApiHandler(builtInCatalog());
  const protobufOnly = await get(handler, "/openapi/v2", { Accept: "application/com.github.proto-openapi.spec.v2@v1.0+protobuf" });
  expect(protobufOnly.status).toBe(200);
  expect(protobufOnly.headers.get("content-type")).toBe("application/com.github.proto-openapi.spec.v2.v1.0+protobuf");
  const bytes = new Uint8Array(await protobufOnly.arrayBuffer());
  expect(protobufOnly.headers.get("etag")).toBe(`"${documentHash(bytes)}"`);
  const jsonFirst = await get(handler, "/openapi/v2", {
    Accept: "application/json, application/com.github.proto-openapi.spec.v2.v1.0+protobuf",
  });
  expect(jsonFirst.headers.get("content-type")).toBe("application/json");
  expect(jsonFirst.headers.get("etag")).not.toBe(protobufOnly.headers.get("etag"));
});

test("the v2 document is Swagger 2.0 with the Pod definition and its group/version/kind", async () => {
  const document = await json(createOpenApiHandler(builtInCatalog()), "/openapi/v2");
  expect(document.swagger).toBe("2.0");
  expect(document.info).toEqual({ title: "Kubernetes", version: "v1.26.15" });
  const pod = document.definitions["io.k8s.api.core.v1.Pod"];
  expect(pod["x-kubernetes-group-version-kind"]).toEqual([{ group: "", kind: "Pod", version: "v1" }]);
  expect(pod.properties.spec).toEqual({ $ref: "#/definitions/io.k8s.api.core.v1.PodSpec" });
  expect(document.definitions["io.k8s.apimachinery.pkg.util.intstr.IntOrString"])
    .toEqual({ type: "string", format: "int-or-string" });
  const create = document.paths["/api/v1/namespaces/{namespace}/pods"].post;
  const podRef = { $ref: "#/definitions/io.k8s.api.core.v1.Pod" };
  expect(create.parameters[0]).toEqual({ name: "body", in: "body", required: true, schema: podRef });
  expect(document.paths["/apis/policy/v1beta1/podsecuritypolicies"].post.operationId).toBe("createPolicyV1beta1PodSecurityPolicy");
});
