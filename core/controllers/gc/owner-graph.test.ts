import { expect, test } from "bun:test";
import type { KubeObject, OwnerReference } from "../../api/types.ts";
import { builtInCatalog } from "../../registry/catalog.ts";
import { OwnerGraph } from "./owner-graph.ts";

const configMaps = builtInCatalog().byKind("", "v1", "ConfigMap")!;

function object(uid: string, extra: { owners?: OwnerReference[]; finalizers?: string[]; deleting?: boolean } = {}): KubeObject {
  return {
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: {
      name: `cm-${uid}`,
      namespace: "default",
      uid,
      ...(extra.owners ? { ownerReferences: extra.owners } : {}),
      ...(extra.finalizers ? { finalizers: extra.finalizers } : {}),
      ...(extra.deleting ? { deletionTimestamp: "2026-01-01T00:00:00Z" } : {}),
    },
  };
}

const ref = (uid: string, blockOwnerDeletion = false): OwnerReference => ({
  apiVersion: "v1",
  kind: "ConfigMap",
  name: `cm-${uid}`,
  uid,
  ...(blockOwnerDeletion ? { blockOwnerDeletion } : {}),
});

const sorted = (uids: Set<string>) => [...uids].sort();

test("processGraphChanges: a dependent is linked to its owner and is dirty itself; a plain object makes nothing dirty", () => {
  const graph = new OwnerGraph();
  expect(sorted(graph.apply("ADDED", configMaps, object("owner")))).toEqual([]);
  expect(sorted(graph.apply("ADDED", configMaps, object("dep", { owners: [ref("owner")] })))).toEqual(["dep"]);
  expect(graph.dependentsOf("owner").map((node) => node.uid)).toEqual(["dep"]);
  expect(graph.hasOwner(ref("owner"))).toBe(true);
  expect(graph.size).toBe(2);
});

test("processGraphChanges: deleting an owner makes its dependents dirty (attemptToDelete) and removes its node", () => {
  const graph = new OwnerGraph();
  graph.apply("ADDED", configMaps, object("owner"));
  graph.apply("ADDED", configMaps, object("a", { owners: [ref("owner")] }));
  graph.apply("ADDED", configMaps, object("b", { owners: [ref("owner")] }));
  graph.apply("ADDED", configMaps, object("other"));
  expect(sorted(graph.apply("DELETED", configMaps, object("owner")))).toEqual(["a", "b"]);
  expect(graph.node("owner")).toBeUndefined();
  expect(graph.hasOwner(ref("owner"))).toBe(false);
  expect(sorted(graph.apply("DELETED", configMaps, object("never-seen")))).toEqual([]);
});

test("a dependent created before its owner is linked once the owner arrives", () => {
  const graph = new OwnerGraph();
  graph.apply("ADDED", configMaps, object("dep", { owners: [ref("owner")] }));
  expect(graph.hasOwner(ref("owner"))).toBe(false);
  graph.apply("ADDED", configMaps, object("owner"));
  expect(graph.hasOwner(ref("owner"))).toBe(true);
  expect(graph.dependentsOf("owner").map((node) => node.uid)).toEqual(["dep"]);
});

test("hasOwner compares the uid and the kind and name the reference names", () => {
  const graph = new OwnerGraph();
  graph.apply("ADDED", configMaps, object("owner"));
  expect(graph.hasOwner({ ...ref("owner"), name: "renamed" })).toBe(false);
  expect(graph.hasOwner({ ...ref("owner"), kind: "Secret" })).toBe(false);
});

test("processTransitions: an owner starting foreground deletion makes itself and its dependents dirty", () => {
  const graph = new OwnerGraph();
  graph.apply("ADDED", configMaps, object("owner"));
  graph.apply("ADDED", configMaps, object("dep", { owners: [ref("owner", true)] }));
  const deleting = object("owner", { finalizers: ["foregroundDeletion"], deleting: true });
  expect(sorted(graph.apply("MODIFIED", configMaps, deleting))).toEqual(["dep", "owner"]);
  // Still deleting: the owner alone is looked at again.
  expect(sorted(graph.apply("MODIFIED", configMaps, deleting))).toEqual(["owner"]);
});

test("addUnblockedOwnersToDeleteQueue: a dependent that drops its reference or goes makes its foreground-deleting owner dirty", () => {
  const graph = new OwnerGraph();
  graph.apply("ADDED", configMaps, object("owner", { finalizers: ["foregroundDeletion"], deleting: true }));
  graph.apply("ADDED", configMaps, object("a", { owners: [ref("owner", true)] }));
  graph.apply("ADDED", configMaps, object("b", { owners: [ref("owner", true)] }));
  expect(sorted(graph.apply("MODIFIED", configMaps, object("a")))).toEqual(["owner"]);
  expect(graph.dependentsOf("owner").map((node) => node.uid)).toEqual(["b"]);
  expect(sorted(graph.apply("DELETED", configMaps, object("b", { owners: [ref("owner", true)] })))).toEqual(["owner"]);
  expect(graph.dependentsOf("owner")).toEqual([]);
});

test("processGraphChanges: an update that leaves the owner references as they were touches no node, itself included", () => {
  const graph = new OwnerGraph();
  graph.apply("ADDED", configMaps, object("owner", { finalizers: ["foregroundDeletion"], deleting: true }));
  expect(sorted(graph.apply("ADDED", configMaps, object("dep", { owners: [ref("owner", true)] })))).toEqual(["dep", "owner"]);
  expect(sorted(graph.apply("MODIFIED", configMaps, object("dep", { owners: [ref("owner", true)] })))).toEqual([]);
});

test("absentOwnerCache: an owner deleted while it had dependents is known absent; one without dependents is not remembered", () => {
  const graph = new OwnerGraph();
  graph.apply("ADDED", configMaps, object("owner"));
  graph.apply("ADDED", configMaps, object("dep", { owners: [ref("owner")] }));
  graph.apply("ADDED", configMaps, object("lonely"));
  graph.apply("DELETED", configMaps, object("owner"));
  graph.apply("DELETED", configMaps, object("lonely"));
  expect(graph.isAbsent("owner")).toBe(true);
  expect(graph.isAbsent("lonely")).toBe(false);
});

test("absentOwnerCache keeps the 500 most recently used owners", () => {
  const graph = new OwnerGraph();
  for (let i = 0; i <= 500; i++) {
    graph.apply("ADDED", configMaps, object(`o${i}`));
    graph.apply("ADDED", configMaps, object(`d${i}`, { owners: [ref(`o${i}`)] }));
    graph.apply("DELETED", configMaps, object(`o${i}`));
    if (i === 250) expect(graph.isAbsent("o0")).toBe(true);
  }
  expect(graph.isAbsent("o1")).toBe(false);
  expect(graph.isAbsent("o0")).toBe(true);
  expect(graph.isAbsent("o500")).toBe(true);
});
