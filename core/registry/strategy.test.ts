import { expect, test } from "bun:test";
import type { KubeObject } from "../api/types.ts";
import { NAMESPACE_HOOKS } from "./strategy.ts";

test("a namespace update keeps the stored spec.finalizers: only the finalize subresource changes them (namespaceStrategy.PrepareForUpdate)", () => {
  const old: KubeObject = { apiVersion: "v1", kind: "Namespace", metadata: { name: "ns" }, spec: { finalizers: ["kubernetes"] } };
  const emptied: KubeObject = { ...old, metadata: { name: "ns", labels: { a: "b" } }, spec: { finalizers: [] } };
  NAMESPACE_HOOKS.beginUpdate!(emptied, old);
  expect(emptied).toEqual({ ...old, metadata: { name: "ns", labels: { a: "b" } } });
  const added: KubeObject = { ...old, metadata: { name: "ns" }, spec: { finalizers: ["example.com/x"] } };
  NAMESPACE_HOOKS.beginUpdate!(added, { ...old, spec: {} });
  expect(added.spec).toEqual({});
});
