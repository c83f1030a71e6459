import { expect, test } from "bun:test";
import { StatusError } from "../api/errors.ts";
import { builtInCatalog } from "../registry/catalog.ts";
import type { ResourceType } from "../api/resource-type.ts";
import { handleCreate } from "./handlers/create.ts";
import { parseRequestInfo } from "./request-info.ts";
import { routeResource } from "./resource-route.ts";

const post = (path: string) => parseRequestInfo("POST", new URL(`https://host${path}`));

test("a virtual built-in type (no storage version in the 1.26 data) never reaches the generic store: 405", () => {
  const bindings = builtInCatalog().byGroupVersionResource("", "v1", "bindings")!;
  expect(bindings.storageVersionHash).toBeUndefined();
  const refused = (() => {
    try {
      routeResource(post("/api/v1/namespaces/ns/bindings"), bindings, new Map(), "POST");
    } catch (e) {
      return e;
    }
  })();
  expect(refused).toBeInstanceOf(StatusError);
  expect((refused as StatusError).code).toBe(405);
});

test("a stored type named like a virtual one (a custom resource 'bindings') is served by the generic store", () => {
  const custom: ResourceType = {
    group: "example.com",
    version: "v1",
    resource: "bindings",
    singularName: "binding",
    kind: "Binding",
    listKind: "BindingList",
    namespaced: true,
    shortNames: [],
    categories: [],
    verbs: ["create", "get", "list"],
    subresources: [],
    storageVersionHash: "abc=",
  };
  expect(routeResource(post("/apis/example.com/v1/namespaces/ns/bindings"), custom, new Map(), "POST")).toBe(handleCreate);
});
