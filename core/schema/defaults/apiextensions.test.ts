import { expect, test } from "bun:test";
import type { KubeObject } from "../../api/types.ts";
import { API_EXTENSIONS_DEFAULTERS } from "./apiextensions.ts";

function defaulted(spec: Record<string, unknown>): KubeObject {
  const crd: KubeObject = {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: "widgets.example.com" },
    spec,
  };
  API_EXTENSIONS_DEFAULTERS.kinds.CustomResourceDefinition(crd);
  return crd;
}

test("a CRD gets its singular name, list kind, no conversion and the storage version as stored", () => {
  const crd = defaulted({
    group: "example.com",
    names: { kind: "Widget", plural: "widgets" },
    versions: [{ name: "v1", served: true, storage: true }],
  });
  expect(crd.spec).toMatchObject({
    names: { kind: "Widget", plural: "widgets", singular: "widget", listKind: "WidgetList" },
    conversion: { strategy: "None" },
  });
  expect(crd.status).toEqual({ storedVersions: ["v1"] });
});

test("a CRD keeps explicit names and a webhook conversion service gets port 443", () => {
  const conversion = {
    strategy: "Webhook",
    webhook: { clientConfig: { service: { namespace: "ns", name: "conv" } }, conversionReviewVersions: ["v1"] },
  };
  const crd = defaulted({ names: { kind: "Widget", singular: "wdg", listKind: "Widgets" }, conversion, versions: [] });
  expect(crd.spec).toMatchObject({
    names: { singular: "wdg", listKind: "Widgets" },
    conversion: { strategy: "Webhook", webhook: { clientConfig: { service: { namespace: "ns", name: "conv", port: 443 } } } },
  });
  expect(crd.status).toBeUndefined();
});

test("a new storage version is appended to status.storedVersions, earlier ones stay (CRD strategy PrepareForUpdate)", () => {
  const crd: KubeObject = {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: "widgets.example.com" },
    spec: {
      names: { kind: "Widget" },
      versions: [{ name: "v1", served: true, storage: false }, { name: "v2", served: true, storage: true }],
    },
    status: { storedVersions: ["v1"] },
  };
  API_EXTENSIONS_DEFAULTERS.kinds.CustomResourceDefinition(crd);
  expect(crd.status).toEqual({ storedVersions: ["v1", "v2"] });
});
