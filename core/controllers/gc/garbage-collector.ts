/**
 * The garbage collector (kube's pkg/controller/garbagecollector, as level-triggered passes over every type):
 * deletes objects whose owners are all gone, drops references to missing owners when others remain, orphans
 * the dependents of owners deleted with the `orphan` finalizer, and deletes the dependents of owners deleted
 * with `foregroundDeletion`, removing that finalizer once no blocking dependent is left.
 */
import type { KubeObject } from "../../api/types.ts";
import type { Catalog } from "../../registry/catalog.ts";
import { FOREGROUND_FINALIZER, ORPHAN_FINALIZER, type PropagationPolicy } from "../../registry/delete-propagation.ts";
import { listObjects } from "../../registry/list.ts";
import type { Registry } from "../../registry/registry.ts";
import { type ControlLoop, startLoop } from "../workloads/mod.ts";
import { buildOwnerGraph, type GraphNode, hasFinalizer, isOwnerPresent, type OwnerGraph, ownerType, withoutOwners } from "./owner-graph.ts";
import { isNotFound } from "../../api/errors.ts";

const RESYNC_MS = 10_000;
const FIELD_MANAGER = "generic-garbage-collector";

export function startGarbageCollector(registry: Registry, catalog: Catalog): ControlLoop {
  const pass = async () => {
    const graph = buildOwnerGraph(await listEverything(registry, catalog));
    for (const node of graph.byUid.values()) {
      if (node.object.metadata.ownerReferences?.length) await collectIfOrphaned(registry, catalog, graph, node);
      if (node.object.metadata.deletionTimestamp) await processOwnerFinalizers(registry, graph, node);
    }
  };
  // Owners going away (deleted, or terminating with a finalizer) are what the collector acts on.
  return startLoop(registry.broker, pass, {
    name: "garbage-collector",
    prefixes: ["/"],
    resyncMs: RESYNC_MS,
    relevant: (event) => event.type === "DELETED" || event.kv.value.includes('"deletionTimestamp"'),
  });
}

async function listEverything(registry: Registry, catalog: Catalog): Promise<GraphNode[]> {
  const nodes: GraphNode[] = [];
  for (const type of catalog.all()) {
    if (!type.verbs.includes("list") || !type.verbs.includes("delete")) continue;
    const { list } = await listObjects(registry.store(type), { namespace: "", revision: 0, limit: 0 });
    for (const object of list.items) nodes.push({ type, object });
  }
  return nodes;
}

async function collectIfOrphaned(registry: Registry, catalog: Catalog, graph: OwnerGraph, node: GraphNode): Promise<void> {
  const refs = node.object.metadata.ownerReferences ?? [];
  const dangling = new Set<string>();
  const waiting = new Set<string>();
  for (const ref of refs) {
    if (!isOwnerPresent(graph, ref)) {
      // The graph is read type by type; an owner made meanwhile is checked live before anything is deleted.
      if (!(await ownerExists(registry, catalog, node.object, ref))) dangling.add(ref.uid);
      continue;
    }
    const owner = graph.byUid.get(ref.uid)!.object;
    if (owner.metadata.deletionTimestamp && hasFinalizer(owner, FOREGROUND_FINALIZER)) waiting.add(ref.uid);
  }
  if (dangling.size === 0 && waiting.size === 0) return;
  if (dangling.size + waiting.size < refs.length) {
    if (dangling.size > 0) await updateObject(registry, node, withoutOwners(node.object, dangling));
    return;
  }
  if (node.object.metadata.deletionTimestamp && waiting.size === 0) return;
  await deleteObject(registry, node, waiting.size > 0 ? "Foreground" : policyFromFinalizers(node.object));
}

async function ownerExists(
  registry: Registry,
  catalog: Catalog,
  dependent: KubeObject,
  ref: { apiVersion: string; kind: string; name: string; uid: string },
): Promise<boolean> {
  const type = ownerType(catalog, ref);
  if (!type) return true;
  try {
    const owner = await registry.store(type).get(type.namespaced ? dependent.metadata.namespace ?? "" : "", ref.name);
    return owner.metadata.uid === ref.uid;
  } catch (e) {
    if (isNotFound(e)) return false;
    throw e;
  }
}

function policyFromFinalizers(obj: KubeObject): PropagationPolicy {
  if (hasFinalizer(obj, ORPHAN_FINALIZER)) return "Orphan";
  if (hasFinalizer(obj, FOREGROUND_FINALIZER)) return "Foreground";
  return "Background";
}

async function processOwnerFinalizers(registry: Registry, graph: OwnerGraph, owner: GraphNode): Promise<void> {
  const uid = String(owner.object.metadata.uid);
  const dependents = graph.dependents.get(uid) ?? [];
  if (hasFinalizer(owner.object, ORPHAN_FINALIZER)) {
    for (const dependent of dependents) await updateObject(registry, dependent, withoutOwners(dependent.object, new Set([uid])));
    await removeFinalizer(registry, owner, ORPHAN_FINALIZER);
    return;
  }
  if (!hasFinalizer(owner.object, FOREGROUND_FINALIZER)) return;
  const blocking = dependents.filter((d) =>
    d.object.metadata.ownerReferences?.some((ref) => ref.uid === uid && ref.blockOwnerDeletion === true)
  );
  if (blocking.length === 0) await removeFinalizer(registry, owner, FOREGROUND_FINALIZER);
}

async function removeFinalizer(registry: Registry, node: GraphNode, finalizer: string): Promise<void> {
  const next = structuredClone(node.object);
  next.metadata.finalizers = (node.object.metadata.finalizers ?? []).filter((f) => f !== finalizer);
  await updateObject(registry, node, next);
}

async function updateObject(registry: Registry, node: GraphNode, next: KubeObject): Promise<void> {
  const store = registry.store(node.type);
  try {
    await store.update(node.object.metadata.namespace ?? "", String(node.object.metadata.name), () => next, {
      fieldManager: FIELD_MANAGER,
    });
  } catch (e) {
    if (!isNotFound(e)) throw e;
  }
}

async function deleteObject(registry: Registry, node: GraphNode, propagationPolicy: PropagationPolicy): Promise<void> {
  const store = registry.store(node.type);
  try {
    await store.delete(node.object.metadata.namespace ?? "", String(node.object.metadata.name), {
      propagationPolicy,
      preconditions: { uid: node.object.metadata.uid },
    });
  } catch (e) {
    if (!isNotFound(e)) throw e;
  }
}
