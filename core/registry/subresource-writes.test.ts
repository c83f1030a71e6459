import { expect, test } from "bun:test";
import type { KubeObject } from "../api/types.ts";
import { statusErrorOf } from "../api/testing.ts";
import { checkBodyName, checkName, mergedForUpdate, RESET_OBJECT_META_FOR_STATUS } from "./subresource-writes.ts";

const stored = (): KubeObject => ({
  apiVersion: "apps/v1",
  kind: "ReplicaSet",
  metadata: { name: "rs", uid: "u", labels: { app: "a" }, annotations: { note: "old" }, ownerReferences: [] },
  spec: { replicas: 1 },
  status: { replicas: 0 },
});

const written = (): KubeObject => ({
  apiVersion: "apps/v1",
  kind: "ReplicaSet",
  metadata: { name: "rs", uid: "u", resourceVersion: "7", labels: { app: "a", added: "yes" }, annotations: { note: "new" } },
  spec: { replicas: 5 },
  status: { replicas: 1 },
});

test("a status write keeps the stored spec and writes the client's status and metadata (rsStatusStrategy.PrepareForUpdate)", () => {
  const merged = mergedForUpdate({ hasStatus: true }, written(), stored(), "status");
  expect(merged.spec).toEqual({ replicas: 1 });
  expect(merged.status).toEqual({ replicas: 1 });
  expect(merged.metadata).toEqual(written().metadata);
});

test("a status write keeps the metadata its strategy resets: labels (deploymentStatusStrategy), ResetObjectMetaForStatus's, or all", () => {
  const labelsKept = mergedForUpdate({ hasStatus: true, statusKeepsMetadata: ["labels"] }, written(), stored(), "status");
  expect([labelsKept.metadata.labels, labelsKept.metadata.annotations]).toEqual([{ app: "a" }, { note: "new" }]);
  const reset = mergedForUpdate({ hasStatus: true, statusKeepsMetadata: RESET_OBJECT_META_FOR_STATUS }, written(), stored(), "status");
  expect(reset.metadata).toEqual({ ...stored().metadata, resourceVersion: "7" });
  const all = mergedForUpdate({ hasStatus: true, statusKeepsMetadata: "all" }, written(), stored(), "status");
  expect(all).toEqual({ ...stored(), metadata: { ...stored().metadata, resourceVersion: "7" }, status: { replicas: 1 } });
});

test("a namespace's finalize write stores the client's spec and metadata and keeps the stored status (namespaceFinalizeStrategy)", () => {
  const current: KubeObject = {
    apiVersion: "v1",
    kind: "Namespace",
    metadata: { name: "ns", labels: { a: "b" } },
    spec: { finalizers: ["kubernetes"] },
    status: { phase: "Terminating" },
  };
  const next: KubeObject = {
    ...current,
    metadata: { name: "ns", labels: { a: "c" } },
    spec: { finalizers: [] },
    status: { phase: "Active" },
  };
  expect(mergedForUpdate({ hasStatus: true }, structuredClone(next), current, "finalize")).toEqual({
    ...next,
    status: { phase: "Terminating" },
  });
});

const named = (metadata: Record<string, unknown>) => ({ metadata }) as KubeObject;

test("checkName: an update's object without a name is kube's undeterminable 400 (ContextBasedNaming.ObjectName's errEmptyName)", () => {
  for (const obj of [{} as KubeObject, named({}), named({ name: "" }), named({ name: null })]) {
    const error = statusErrorOf(() => checkName(obj, "app", "ns"));
    expect([error.code, error.message]).toEqual([
      400,
      "the name of the object (app based on URL) was undeterminable: name must be provided",
    ]);
  }
  expect(() => checkName(named({ name: "app" }), "app", "ns")).not.toThrow();
});

test("checkName and checkBodyName: another name or namespace than the URL's is a 400; checkBodyName lets a nameless body pass", () => {
  for (const check of [checkName, checkBodyName]) {
    expect(statusErrorOf(() => check(named({ name: "other" }), "app", "ns")).message).toBe(
      "the name of the object (other) does not match the name on the URL (app)",
    );
    expect(statusErrorOf(() => check(named({ name: "app", namespace: "elsewhere" }), "app", "ns")).message).toBe(
      "the namespace of the object (elsewhere) does not match the namespace on the request (ns)",
    );
  }
  expect(() => checkBodyName(named({}), "app", "ns")).not.toThrow();
});
