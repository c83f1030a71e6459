/**
 * The garbage collector (kube's pkg/controller/garbagecollector): deletes objects whose owners are all gone,
 * drops references to missing owners when others remain, orphans the dependents of owners deleted with the
 * `orphan` finalizer, and deletes the dependents of owners deleted with `foregroundDeletion`, removing that
 * finalizer once no blocking dependent is left. As kube's GraphBuilder, it follows every change into an owner
 * graph (one list at start, then the committed events) and looks again only at the nodes an event made dirty
 * (attemptToDeleteItem / attemptToOrphan), reading an object from the store only to act on it. kube's graph builder
 * reads only the metadata of what its informers hand it (kube-controller-manager's ObjectOrMetadataInformerFactory:
 * typed informers where they exist, metadata-only ones otherwise); here the followed objects are parsed without the
 * copy of metadata that puts resourceVersion first, which the graph never reads (decodeStoredWithoutVersion), and a
 * change that cannot concern the graph (an object without owners, not being deleted, not held) is not parsed at all.
 */
import { isNotFound, newNotFound } from "../../api/errors.ts";
import { apiVersionOf, type KubeObject, type OwnerReference } from "../../api/types.ts";
import type { ResourceType } from "../../api/resource-type.ts";
import type { Catalog } from "../../registry/catalog.ts";
import { decodeStoredWithoutVersion } from "../../registry/codec.ts";
import { FOREGROUND_FINALIZER, ORPHAN_FINALIZER, type PropagationPolicy } from "../../registry/delete-propagation.ts";
import type { Registry } from "../../registry/registry.ts";
import { forgetOldest } from "../../runtime/bounded.ts";
import { type ControllerClient, type ControlLoop, startLoop, syncEach } from "../workloads/mod.ts";
import { type GraphNode, OwnerGraph, ownerType, withoutOwners } from "./owner-graph.ts";

/** How often every node with owners or a deletion in progress is looked at again, in case an action failed. */
const RESYNC_MS = 10_000;
const FIELD_MANAGER = "generic-garbage-collector";
/** The source of the collector's Events (NewGarbageCollector's recorder). */
const EVENT_COMPONENT = "garbage-collector-controller";
const NAMESPACES = { group: "", version: "v1", resource: "namespaces" };
/** Dependent and owner uid pairs already reported, so a resync does not report them again. */
const REPORTED_KEPT = 10_000;

/** `client` records the collector's Events and lists namespaces, as the collector's user. */
export function startGarbageCollector(registry: Registry, catalog: Catalog, client: ControllerClient): ControlLoop {
  const graph = new OwnerGraph();
  const collector: Collector = { registry, catalog, graph, client, reported: new Set() };
  const dirty = new Set<string>();
  let lastSweep = Date.now();
  const following = registry.follow(
    "/",
    (event) => {
      const type = collectedType(catalog, event.object);
      if (!type) return;
      const changed = graph.apply(event.type, type, event.object, event.key);
      if (changed.size === 0) return;
      for (const uid of changed) dirty.add(uid);
      loop.trigger();
    },
    (kv, type) => graph.concerns(kv, type),
    // What a relist after lost watch history compares with: the graph's nodes, as identities. Owners not held get no
    // DELETED from a relist, so what live reads found of them is read again.
    () => {
      graph.forgetPresent();
      return Array.from(
        graph.nodes(),
        (node) => ({
          apiVersion: apiVersionOf(node.type.group, node.type.version),
          kind: node.type.kind,
          metadata: { uid: node.uid, namespace: node.namespace, name: node.name },
        }),
      );
    },
    decodeStoredWithoutVersion,
  );
  const pass = async () => {
    await following;
    if (Date.now() - lastSweep >= RESYNC_MS) {
      lastSweep = Date.now();
      for (const node of graph.nodes()) if (node.owners.length > 0 || node.beingDeleted) dirty.add(node.uid);
    }
    const batch = [...dirty];
    dirty.clear();
    await syncEach(batch, async (uid: string) => {
      try {
        await attemptToDeleteItem(collector, uid);
      } catch (error) {
        dirty.add(uid);
        throw error;
      }
    });
  };
  const loop = startLoop(registry.broker, pass, { name: "garbage-collector", prefixes: [], resyncMs: RESYNC_MS });
  return {
    ...loop,
    stop() {
      loop.stop();
      following.then((follow) => follow.stop(), () => undefined);
    },
  };
}

/** The served type of a stored object, when the collector may list and delete it. */
function collectedType(catalog: Catalog, object: KubeObject): ResourceType | undefined {
  const type = ownerType(catalog, { apiVersion: object.apiVersion ?? "", kind: object.kind ?? "" });
  return type && type.verbs.includes("list") && type.verbs.includes("delete") ? type : undefined;
}

/** What the collector's passes share. */
interface Collector {
  registry: Registry;
  catalog: Catalog;
  graph: OwnerGraph;
  client: ControllerClient;
  reported: Set<string>;
}

async function attemptToDeleteItem(collector: Collector, uid: string): Promise<void> {
  const { registry, graph } = collector;
  const node = graph.node(uid);
  if (node && node.owners.length > 0) await collectIfOrphaned(collector, node);
  // Our own write may have changed or removed the node.
  const current = graph.node(uid);
  if (current?.beingDeleted) await processOwnerFinalizers(registry, graph, current);
}

/**
 * kube's attemptToDeleteItem for an object with owners, once classifyReferences has sorted them into dangling
 * (gone), waiting (deleting with foregroundDeletion) and solid (the rest). An object already being deleted is
 * left to that deletion.
 */
async function collectIfOrphaned(collector: Collector, node: GraphNode): Promise<void> {
  const { registry, catalog, graph } = collector;
  if (node.beingDeleted) return;
  // kube's isDangling: a cluster-scoped object naming an owner of a namespaced kind has nowhere to look for it
  // (namespacedOwnerOfClusterScopedObjectErr), and the worker forgets the object: never deleted, never changed.
  const namespacedOwners = node.namespace === "" ? node.owners.filter((ref) => ownerType(catalog, ref)?.namespaced) : [];
  if (namespacedOwners.length > 0) {
    for (const ref of namespacedOwners) await reportIfInOtherNamespace(collector, node, ref);
    return;
  }
  const dangling = new Set<string>();
  const waiting = new Set<string>();
  for (const ref of node.owners) {
    if (!graph.hasOwner(ref, node.namespace)) {
      // An owner the graph does not hold (one without owners, a type it does not follow, another process's commit not
      // seen yet) is read live, unless it was seen deleted (kube's isDangling consults absentOwnerCache first) or a
      // read found it and no deletion of it came since.
      if (graph.isAbsent(ref.uid)) dangling.add(ref.uid);
      else if (!graph.isPresent(ref, node.namespace) && !(await ownerExists(collector, node, ref))) {
        dangling.add(ref.uid);
        await reportIfInOtherNamespace(collector, node, ref);
      }
      continue;
    }
    const owner = graph.node(ref.uid)!;
    if (owner.beingDeleted && owner.finalizers.includes(FOREGROUND_FINALIZER)) waiting.add(ref.uid);
  }
  if (dangling.size === 0 && waiting.size === 0) return;
  if (dangling.size + waiting.size < node.owners.length) {
    // A solid owner keeps the object; references to the others go, or a waiting owner would wait for it forever.
    await updateObject(registry, node, (current) => withoutOwners(current, new Set([...dangling, ...waiting])));
    return;
  }
  // Foreground only when the object has dependents of its own for its deletion to wait for.
  const foreground = waiting.size > 0 && graph.dependentsOf(node.uid).length > 0;
  await deleteObject(registry, node, foreground ? "Foreground" : policyFromFinalizers(node));
}

async function ownerExists(collector: Collector, dependent: GraphNode, ref: OwnerReference): Promise<boolean> {
  const type = ownerType(collector.catalog, ref);
  if (!type) return true;
  const owner = await readOwner(collector.registry, type, type.namespaced ? dependent.namespace : "", ref.name);
  if (owner?.metadata.uid !== ref.uid) return false;
  collector.graph.notePresent(ref, dependent.namespace);
  return true;
}

async function readOwner(registry: Registry, type: ResourceType, namespace: string, name: string): Promise<KubeObject | undefined> {
  try {
    return await registry.store(type).get(namespace, name);
  } catch (e) {
    if (isNotFound(e)) return undefined;
    throw e;
  }
}

/**
 * kube's reportInvalidNamespaceOwnerRef: a dependent naming an owner that exists in another namespace gets a Warning
 * Event, once. kube's graph has observed every object and finds the owner by uid (addDependentToOwners); here the owner
 * is one the graph holds, or an object of the kind and name the reference names in another namespace.
 */
async function reportIfInOtherNamespace(collector: Collector, dependent: GraphNode, ref: OwnerReference): Promise<void> {
  const pair = `${dependent.uid}/${ref.uid}`;
  if (collector.reported.has(pair)) return;
  const ownerNamespace = await namespaceElsewhere(collector, dependent, ref);
  if (ownerNamespace === undefined) return;
  collector.reported.add(pair);
  forgetOldest(collector.reported, REPORTED_KEPT);
  const invalid = `[${ref.apiVersion}/${ref.kind}, namespace: ${dependent.namespace}, name: ${ref.name}, uid: ${ref.uid}]`;
  collector.client.recordEvent(
    {
      apiVersion: apiVersionOf(dependent.type.group, dependent.type.version),
      kind: dependent.type.kind,
      metadata: { namespace: dependent.namespace || undefined, name: dependent.name, uid: dependent.uid },
    },
    {
      type: "Warning",
      reason: "OwnerRefInvalidNamespace",
      message: `ownerRef ${invalid} does not exist in namespace ${JSON.stringify(dependent.namespace)}`,
      component: EVENT_COMPONENT,
    },
  );
}

/** The namespace, other than the dependent's, of the namespaced owner `ref` names, when one exists. */
async function namespaceElsewhere(collector: Collector, dependent: GraphNode, ref: OwnerReference): Promise<string | undefined> {
  const held = collector.graph.node(ref.uid);
  if (held) return held.type.namespaced && held.namespace !== dependent.namespace ? held.namespace : undefined;
  const type = ownerType(collector.catalog, ref);
  if (!type?.namespaced) return undefined;
  for (const namespace of await collector.client.list(NAMESPACES)) {
    const name = String(namespace.metadata.name);
    if (name === dependent.namespace) continue;
    if ((await readOwner(collector.registry, type, name, ref.name))?.metadata.uid === ref.uid) return name;
  }
  return undefined;
}

function policyFromFinalizers(node: GraphNode): PropagationPolicy {
  if (node.finalizers.includes(ORPHAN_FINALIZER)) return "Orphan";
  if (node.finalizers.includes(FOREGROUND_FINALIZER)) return "Foreground";
  return "Background";
}

async function processOwnerFinalizers(registry: Registry, graph: OwnerGraph, owner: GraphNode): Promise<void> {
  const dependents = graph.dependentsOf(owner.uid);
  if (owner.finalizers.includes(ORPHAN_FINALIZER)) {
    const released = new Set([owner.uid]);
    for (const dependent of dependents) await updateObject(registry, dependent, (current) => withoutOwners(current, released));
    await removeFinalizer(registry, owner, ORPHAN_FINALIZER);
    return;
  }
  if (!owner.finalizers.includes(FOREGROUND_FINALIZER)) return;
  const blocking = dependents.filter((d) => d.owners.some((ref) => ref.uid === owner.uid && ref.blockOwnerDeletion === true));
  if (blocking.length === 0) await removeFinalizer(registry, owner, FOREGROUND_FINALIZER);
}

async function removeFinalizer(registry: Registry, node: GraphNode, finalizer: string): Promise<void> {
  await updateObject(registry, node, (current) => {
    current.metadata.finalizers = (current.metadata.finalizers ?? []).filter((f) => f !== finalizer);
    return current;
  });
}

/** Changes the object as it is now; an object since replaced by another of the same name is left alone. */
async function updateObject(registry: Registry, node: GraphNode, change: (current: KubeObject) => KubeObject): Promise<void> {
  const store = registry.store(node.type);
  try {
    await store.update(node.namespace, node.name, (current) => {
      if (current?.metadata.uid !== node.uid) throw newNotFound(store.qualified, node.name);
      return change(current);
    }, { fieldManager: FIELD_MANAGER });
  } catch (e) {
    if (!isNotFound(e)) throw e;
  }
}

async function deleteObject(registry: Registry, node: GraphNode, propagationPolicy: PropagationPolicy): Promise<void> {
  const store = registry.store(node.type);
  try {
    await store.delete(node.namespace, node.name, { propagationPolicy, preconditions: { uid: node.uid } });
  } catch (e) {
    if (!isNotFound(e)) throw e;
  }
}
