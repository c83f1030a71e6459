/**
 * What /openapi/v2 and /openapi/v3 say of custom resources decides what kubectl sends: the PATCH media types
 * (kubectl apply picks strategic merge patch when advertised) and client-side validation of `kind: List` files.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createNamespace, getJson } from "./_api.ts";
import { startServer, type TestServer } from "./harness.ts";
import { kubectlOk } from "./_kubectl.ts";

const NS = "cr-openapi";
let server: TestServer;

const WIDGETS_CRD = JSON.stringify({
  apiVersion: "apiextensions.k8s.io/v1",
  kind: "CustomResourceDefinition",
  metadata: { name: "widgets.example.com" },
  spec: {
    group: "example.com",
    scope: "Namespaced",
    names: { plural: "widgets", singular: "widget", kind: "Widget", listKind: "WidgetList" },
    versions: [{
      name: "v1",
      served: true,
      storage: true,
      schema: { openAPIV3Schema: { type: "object", properties: { spec: { type: "object", properties: { size: { type: "integer" } } } } } },
    }],
  },
});

/** A CRD whose root keeps unknown fields but still lists some properties. */
const GADGETS_CRD = JSON.stringify({
  apiVersion: "apiextensions.k8s.io/v1",
  kind: "CustomResourceDefinition",
  metadata: { name: "gadgets.example.com" },
  spec: {
    group: "example.com",
    scope: "Namespaced",
    names: { plural: "gadgets", singular: "gadget", kind: "Gadget", listKind: "GadgetList" },
    versions: [{
      name: "v1",
      served: true,
      storage: true,
      schema: {
        openAPIV3Schema: {
          type: "object",
          "x-kubernetes-preserve-unknown-fields": true,
          properties: { spec: { type: "object", properties: { size: { type: "integer" } } } },
        },
      },
    }],
  },
});

const widget = (size: number) =>
  JSON.stringify({ apiVersion: "example.com/v1", kind: "Widget", metadata: { name: "w", namespace: NS }, spec: { size } });

beforeAll(async () => {
  server = await startServer();
  await createNamespace(server, NS);
  for (const crd of [WIDGETS_CRD, GADGETS_CRD]) await kubectlOk(server, ["apply", "-f", "-"], crd);
  await kubectlOk(server, [
    "wait",
    "--for",
    "condition=established",
    "--timeout=10s",
    "crd/widgets.example.com",
    "crd/gadgets.example.com",
  ]);
});
afterAll(() => server.stop());

test("custom resource PATCH operations advertise no strategic merge patch in /openapi/v3 and /openapi/v2 (apiextensions builder.buildRoute)", async () => {
  const v3 = await getJson(server, "/openapi/v3/apis/example.com/v1");
  const patch = v3.paths["/apis/example.com/v1/namespaces/{namespace}/widgets/{name}"].patch;
  expect(Object.keys(patch.requestBody.content)).toEqual([
    "application/apply-patch+yaml",
    "application/json-patch+json",
    "application/merge-patch+json",
  ]);
  const v2 = await getJson(server, "/openapi/v2");
  const item = v2.paths["/apis/example.com/v1/namespaces/{namespace}/widgets/{name}"];
  expect(item.patch.consumes).toEqual(["application/json-patch+json", "application/merge-patch+json", "application/apply-patch+yaml"]);
  expect(item.put.consumes).toEqual(["application/json", "application/yaml"]);
  expect(item.get.consumes).toEqual(["application/json", "application/yaml"]);
  // Built-in kinds keep strategic merge patch.
  expect(v2.paths["/api/v1/namespaces/{namespace}/configmaps/{name}"].patch.consumes).toContain("application/strategic-merge-patch+json");
});

test("kubectl apply of a changed custom resource updates it (a merge patch, as kube advertises)", async () => {
  expect(await kubectlOk(server, ["apply", "-f", "-"], widget(1))).toBe("widget.example.com/w created\n");
  expect(await kubectlOk(server, ["apply", "-f", "-"], widget(2))).toBe("widget.example.com/w configured\n");
  expect(await kubectlOk(server, ["-n", NS, "get", "widget", "w", "-o", "jsonpath={.spec.size}"])).toBe("2");
});

test("/openapi/v2 publishes a custom resource whose root preserves unknown fields as a bare object (ToStructuralOpenAPIV2, buildKubeNative)", async () => {
  const v2 = await getJson(server, "/openapi/v2");
  expect(v2.definitions["com.example.v1.Gadget"]).toEqual({
    type: "object",
    "x-kubernetes-group-version-kind": [{ group: "example.com", kind: "Gadget", version: "v1" }],
  });
});

test("kubectl create -f of a kind: List with a custom resource carrying fields outside its schema passes client-side validation", async () => {
  const list = JSON.stringify({
    apiVersion: "v1",
    kind: "List",
    items: [{
      apiVersion: "example.com/v1",
      kind: "Gadget",
      metadata: { name: "g", namespace: NS },
      spec: { size: 1 },
      extra: { kept: true },
    }],
  });
  expect(await kubectlOk(server, ["create", "-f", "-"], list)).toBe("gadget.example.com/g created\n");
  expect(await kubectlOk(server, ["-n", NS, "get", "gadget", "g", "-o", "jsonpath={.extra.kept}"])).toBe("true");
});
