import { expect, test } from "bun:test";
import type { ResourceType } from "../resource-type.ts";
import { validateKind } from "./mod.ts";

const type = (group: string, resource: string): ResourceType => ({
  group,
  version: "v1",
  resource,
  singularName: "",
  kind: "",
  listKind: "",
  namespaced: true,
  shortNames: [],
  categories: [],
  verbs: [],
  subresources: [],
});

test("validateKind() runs the kind's create rules when there is no stored object", () => {
  expect(validateKind(type("", "pods"), { metadata: { name: "p" }, spec: {} }).map((e) => e.field)).toEqual(["spec.containers"]);
});

test("validateKind() runs the kind's update rules against the stored object", () => {
  const old = { metadata: { name: "b" }, roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "Role", name: "a" } };
  const next = { ...old, roleRef: { ...old.roleRef, name: "b" } };
  expect(validateKind(type("rbac.authorization.k8s.io", "rolebindings"), next, old).map((e) => e.detail)).toEqual([
    "cannot change roleRef",
  ]);
});

test("validateKind() accepts kinds without rules of their own", () => {
  expect(validateKind(type("example.com", "widgets"), { metadata: { name: "w" }, spec: { anything: true } })).toEqual([]);
});
