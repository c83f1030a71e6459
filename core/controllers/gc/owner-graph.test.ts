import { expect, test } from "bun:test";
import type { KubeObject, OwnerReference } from "../../api/types.ts";
import { builtInCatalog } from "../../registry/catalog.ts";
import type { EventType } from "../../storage/storage.ts";
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

/** A change of a ConfigMap as the follower hands it over, at its storage key. */
const apply = (graph: OwnerGraph, type: EventType, obj: KubeObject) =>
  graph.apply(type, configMaps, obj, `/core/configmaps/default/${obj.metadata.name}`);

test("processGraphChanges: a dependent is linked to its owner and is dirty itself; a plain object makes nothing dirty", () => {
  const graph = new OwnerGraph();
  expect(sorted(apply(graph, "ADDED", object("owner")))).toEqual([]);
  expect(sorted(apply(graph, "ADDED", object("dep", { owners: [ref("owner")] })))).toEqual(["dep"]);
  expect(graph.dependentsOf("owner").map((node) => node.uid)).toEqual(["dep"]);
  expect(graph.hasOwner(ref("owner"), "default")).toBe(true);
  expect(graph.size).toBe(2);
});

test("processGraphChanges: deleting an owner makes its dependents dirty (attemptToDelete) and removes its node", () => {
  const graph = new OwnerGraph();
  apply(graph, "ADDED", object("owner"));
  apply(graph, "ADDED", object("a", { owners: [ref("owner")] }));
  apply(graph, "ADDED", object("b", { owners: [ref("owner")] }));
  apply(graph, "ADDED", object("other"));
  expect(sorted(apply(graph, "DELETED", object("owner")))).toEqual(["a", "b"]);
  expect(graph.node("owner")).toBeUndefined();
  expect(graph.hasOwner(ref("owner"), "default")).toBe(false);
  expect(sorted(apply(graph, "DELETED", object("never-seen")))).toEqual([]);
});

test("a dependent created before its owner is linked once the owner arrives", () => {
  const graph = new OwnerGraph();
  apply(graph, "ADDED", object("dep", { owners: [ref("owner")] }));
  expect(graph.hasOwner(ref("owner"), "default")).toBe(false);
  apply(graph, "ADDED", object("owner"));
  expect(graph.hasOwner(ref("owner"), "default")).toBe(true);
  expect(graph.dependentsOf("owner").map((node) => node.uid)).toEqual(["dep"]);
});

test("hasOwner compares the uid and the kind and name the reference names, in the dependent's namespace for a namespaced kind", () => {
  const graph = new OwnerGraph();
  apply(graph, "ADDED", object("owner"));
  expect(graph.hasOwner(ref("owner"), "default")).toBe(true);
  expect(graph.hasOwner(ref("owner"), "elsewhere")).toBe(false);
  expect(graph.hasOwner({ ...ref("owner"), name: "renamed" }, "default")).toBe(false);
  expect(graph.hasOwner({ ...ref("owner"), kind: "Secret" }, "default")).toBe(false);
});

test("processTransitions: an owner starting foreground deletion makes itself and its dependents dirty", () => {
  const graph = new OwnerGraph();
  apply(graph, "ADDED", object("owner"));
  apply(graph, "ADDED", object("dep", { owners: [ref("owner", true)] }));
  const deleting = object("owner", { finalizers: ["foregroundDeletion"], deleting: true });
  expect(sorted(apply(graph, "MODIFIED", deleting))).toEqual(["dep", "owner"]);
  // Still deleting: the owner alone is looked at again.
  expect(sorted(apply(graph, "MODIFIED", deleting))).toEqual(["owner"]);
});

test("addUnblockedOwnersToDeleteQueue: a dependent that drops its reference or goes makes its foreground-deleting owner dirty", () => {
  const graph = new OwnerGraph();
  apply(graph, "ADDED", object("owner", { finalizers: ["foregroundDeletion"], deleting: true }));
  apply(graph, "ADDED", object("a", { owners: [ref("owner", true)] }));
  apply(graph, "ADDED", object("b", { owners: [ref("owner", true)] }));
  expect(sorted(apply(graph, "MODIFIED", object("a")))).toEqual(["owner"]);
  expect(graph.dependentsOf("owner").map((node) => node.uid)).toEqual(["b"]);
  expect(sorted(apply(graph, "DELETED", object("b", { owners: [ref("owner", true)] })))).toEqual(["owner"]);
  expect(graph.dependentsOf("owner")).toEqual([]);
});

test("processGraphChanges: an update that leaves the owner references as they were touches no node, itself included", () => {
  const graph = new OwnerGraph();
  apply(graph, "ADDED", object("owner", { finalizers: ["foregroundDeletion"], deleting: true }));
  expect(sorted(apply(graph, "ADDED", object("dep", { owners: [ref("owner", true)] })))).toEqual(["dep", "owner"]);
  expect(sorted(apply(graph, "MODIFIED", object("dep", { owners: [ref("owner", true)] })))).toEqual([]);
});

test("absentOwnerCache: an owner deleted while it had dependents is known absent; one without dependents is not remembered", () => {
  const graph = new OwnerGraph();
  apply(graph, "ADDED", object("owner"));
  apply(graph, "ADDED", object("dep", { owners: [ref("owner")] }));
  apply(graph, "ADDED", object("lonely"));
  apply(graph, "DELETED", object("owner"));
  apply(graph, "DELETED", object("lonely"));
  expect(graph.isAbsent("owner")).toBe(true);
  expect(graph.isAbsent("lonely")).toBe(false);
});

test("absentOwnerCache keeps the 500 most recently used owners", () => {
  const graph = new OwnerGraph();
  for (let i = 0; i <= 500; i++) {
    apply(graph, "ADDED", object(`o${i}`));
    apply(graph, "ADDED", object(`d${i}`, { owners: [ref(`o${i}`)] }));
    apply(graph, "DELETED", object(`o${i}`));
    if (i === 250) expect(graph.isAbsent("o0")).toBe(true);
  }
  expect(graph.isAbsent("o1")).toBe(false);
  expect(graph.isAbsent("o0")).toBe(true);
  expect(graph.isAbsent("o500")).toBe(true);
});

test("concerns: a change is parsed only when it is a deletion, of an object held, or names owners or a deletion in progress", () => {
  const graph = new OwnerGraph();
  const kv = (key: string, obj: KubeObject) => ({ key, value: JSON.stringify(obj), createRevision: 1, modRevision: 1 });
  const plain = kv("/core/configmaps/default/cm-plain", object("plain"));
  expect(graph.concerns(plain, "ADDED")).toBe(false);
  expect(graph.concerns(plain, "MODIFIED")).toBe(false);
  expect(graph.concerns(plain, "DELETED")).toBe(true);
  expect(graph.concerns(kv("/core/configmaps/default/cm-dep", object("dep", { owners: [ref("owner")] })), "ADDED")).toBe(true);
  expect(graph.concerns(kv("/core/configmaps/default/cm-gone", object("gone", { finalizers: ["x"], deleting: true })), "MODIFIED"))
    .toBe(true);
  // A member name spelled with an escape is still a member name.
  const escaped = kv("/core/configmaps/default/cm-esc", object("esc")).value.replace('"name"', '"n\\u0061me"');
  expect(graph.concerns({ ...plain, value: escaped }, "ADDED")).toBe(true);
  // Finalizers alone (no deletion yet) and labels do not concern the graph.
  expect(graph.concerns(kv("/core/configmaps/default/cm-fin", object("fin", { finalizers: ["x"] })), "ADDED")).toBe(false);
});

test("referencesDiffs: an update that drops every owner reference of a held dependent concerns the graph and unlinks it", () => {
  const graph = new OwnerGraph();
  const key = "/core/configmaps/default/cm-dep";
  apply(graph, "ADDED", object("dep", { owners: [ref("owner")] }));
  const dropped = { key, value: JSON.stringify(object("dep")), createRevision: 1, modRevision: 2 };
  expect(graph.concerns(dropped, "MODIFIED")).toBe(true);
  apply(graph, "MODIFIED", object("dep"));
  expect(graph.dependentsOf("owner")).toEqual([]);
  expect(sorted(apply(graph, "DELETED", object("owner")))).toEqual([]);
  // Deleted, the key is no longer held: a plain object made again under it is not parsed.
  apply(graph, "DELETED", object("dep"));
  expect(graph.concerns({ ...dropped, value: JSON.stringify(object("dep2")) }, "ADDED")).toBe(false);
});

test("processGraphChanges: deleting an owner the graph never held (it names no owner) makes its dependents dirty and absent", () => {
  const graph = new OwnerGraph();
  apply(graph, "ADDED", object("a", { owners: [ref("owner")] }));
  apply(graph, "ADDED", object("b", { owners: [ref("owner")] }));
  expect(graph.hasOwner(ref("owner"), "default")).toBe(false);
  expect(sorted(apply(graph, "DELETED", object("owner")))).toEqual(["a", "b"]);
  expect(graph.isAbsent("owner")).toBe(true);
});

test("an owner a live read found stays known present, under the identity it was found as, until its deletion or a relist", () => {
  const graph = new OwnerGraph();
  apply(graph, "ADDED", object("dep", { owners: [ref("owner")] }));
  expect(graph.isPresent(ref("owner"), "default")).toBe(false);
  graph.notePresent(ref("owner"), "default");
  expect(graph.isPresent(ref("owner"), "default")).toBe(true);
  // kube's isDangling reads the owner by the reference's name: another name or namespace is another owner to read.
  expect(graph.isPresent({ ...ref("owner"), name: "other" }, "default")).toBe(false);
  expect(graph.isPresent(ref("owner"), "elsewhere")).toBe(false);
  apply(graph, "DELETED", object("owner"));
  expect(graph.isPresent(ref("owner"), "default")).toBe(false);
  graph.notePresent(ref("second"), "default");
  graph.forgetPresent();
  expect(graph.isPresent(ref("second"), "default")).toBe(false);
});
