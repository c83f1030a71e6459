/**
 * The garbage collector's graph of who owns whom, kept up to date from every committed change as kube's
 * GraphBuilder keeps it (pkg/controller/garbagecollector/graph_builder.go, processGraphChanges): each event
 * inserts, updates or removes one node and its owner edges, and answers the nodes the collector must look at
 * again (the dirty queue): a node that changed, the dependents of a node deleted or starting foreground deletion,
 * and the owners waiting for their dependents (foregroundDeletion) that a change may unblock.
 * Unlike kube's graph it holds no node for an object that names no owner and is not being deleted (most objects, and
 * most creates): the follower skips such a change without parsing it (concerns). Its dependents still find it: they
 * are linked to it by uid, as kube links them to a virtual node, its deletion makes them dirty, and whether it exists
 * is read live, as kube's isDangling reads every owner it has not seen deleted.
 */
import { deepEqual } from "../../api/equality.ts";
import type { KubeObject, OwnerReference } from "../../api/types.ts";
import type { ResourceType } from "../../api/resource-type.ts";
import type { Catalog } from "../../registry/catalog.ts";
import type { EventType, KeyValue } from "../../storage/storage.ts";
import { FOREGROUND_FINALIZER } from "../../registry/delete-propagation.ts";
import { forgetOldest } from "../../runtime/bounded.ts";

/** What the collector needs of an object; the object itself is read again before any write. */
export interface GraphNode {
  type: ResourceType;
  /** The storage key the object was read at. */
  key: string;
  uid: string;
  namespace: string;
  name: string;
  owners: OwnerReference[];
  finalizers: string[];
  beingDeleted: boolean;
}

/**
 * Whether a stored object's text may name owners or a deletion in progress. Names are written as they are
 * (JSON.stringify's and Go's encoders escape no letter); a text with a \u escape anywhere is parsed to be sure. Three
 * plain searches: a regular expression of the three alternatives took twice as long over a ConfigMap's text.
 */
function mayNameOwnersOrDeletion(text: string): boolean {
  return text.includes('"ownerReferences"') || text.includes('"deletionTimestamp"') || text.includes("\\u");
}

/** kube's absentOwnerCache holds the last 500 owners known to be gone (garbagecollector.go, NewReferenceCache(500)). */
const ABSENT_OWNERS_KEPT = 500;
/** Owners not held that a live read found; one forgotten is read again when next asked about. */
const PRESENT_OWNERS_KEPT = 10_000;

export class OwnerGraph {
  readonly #byUid = new Map<string, GraphNode>();
  /** Storage key → uid of the node read there. */
  readonly #byKey = new Map<string, string>();
  /** Uids of owners deleted while they had dependents, oldest first: their dependents need no live lookup. */
  readonly #absent = new Set<string>();
  /**
   * Owners not held that a live read found, by uid, each with the identity it was found under, until their deletion
   * or a relist: kube's graph holds an observed node for every such owner, so the collector's resync need not read
   * them again.
   */
  readonly #present = new Map<string, string>();
  /** Owner uid → the uids of the nodes naming it, whether or not the owner is in the graph. */
  readonly #dependents = new Map<string, Set<string>>();

  get size(): number {
    return this.#byUid.size;
  }

  node(uid: string): GraphNode | undefined {
    return this.#byUid.get(uid);
  }

  nodes(): IterableIterator<GraphNode> {
    return this.#byUid.values();
  }

  dependentsOf(uid: string): GraphNode[] {
    const nodes: GraphNode[] = [];
    for (const dependent of this.#dependents.get(uid) ?? []) {
      const node = this.#byUid.get(dependent);
      if (node) nodes.push(node);
    }
    return nodes;
  }

  /**
   * Whether the owner a reference of an object in `namespace` names is in the graph: kube's isDangling reads it by the
   * kind and name the reference names, in the object's own namespace for a namespaced kind, and compares the uid.
   */
  hasOwner(ref: OwnerReference, namespace: string): boolean {
    const owner = this.#byUid.get(ref.uid);
    return owner !== undefined && owner.name === ref.name && owner.type.kind === ref.kind &&
      (!owner.type.namespaced || owner.namespace === namespace);
  }

  /** Whether `uid` names an owner seen deleted (kube's absentOwnerCache, consulted before a live lookup). */
  isAbsent(uid: string): boolean {
    if (!this.#absent.has(uid)) return false;
    // Recently used entries are kept longest.
    this.#absent.delete(uid);
    this.#absent.add(uid);
    return true;
  }

  /** Whether a live read found the owner `ref` names (in `namespace`), with no deletion of it seen since. */
  isPresent(ref: OwnerReference, namespace: string): boolean {
    return this.#present.get(ref.uid) === ownerIdentity(ref, namespace);
  }

  notePresent(ref: OwnerReference, namespace: string): void {
    this.#present.set(ref.uid, ownerIdentity(ref, namespace));
    forgetOldest(this.#present, PRESENT_OWNERS_KEPT);
  }

  /** After lost watch history, what live reads found may have been deleted unseen (a relist reports only held nodes). */
  forgetPresent(): void {
    this.#present.clear();
  }

  /**
   * Whether a committed change may concern the graph, from its stored text (unparsed): a deletion (the object may own
   * others, held or not), a change of an object held (it may drop its owners), or a text naming owner references or a
   * deletion in progress.
   */
  concerns(kv: KeyValue, eventType: EventType): boolean {
    return eventType === "DELETED" || this.#byKey.has(kv.key) || mayNameOwnersOrDeletion(kv.value);
  }

  /**
   * Applies one committed change of `object` (served as `type`, read at storage key `key`; a relist's DELETED may
   * come without it); answers the uids to process again.
   */
  apply(eventType: EventType, type: ResourceType, object: KubeObject, key: string | undefined): Set<string> {
    const uid = String(object.metadata.uid ?? "");
    const dirty = new Set<string>();
    if (uid === "") return dirty;
    const existing = this.#byUid.get(uid);
    if (eventType === "DELETED") {
      if (existing) this.#remove(existing);
      this.#present.delete(uid);
      // An owner not held still has the dependents that name it (kube: the virtual node's).
      for (const dependent of this.#dependents.get(uid) ?? []) dirty.add(dependent);
      if (dirty.size > 0) this.#markAbsent(uid);
      if (existing) this.#addWaitingOwners(existing.owners, dirty);
      return dirty;
    }
    const node = nodeOf(type, key ?? existing?.key ?? "", uid, object);
    this.#byUid.set(uid, node);
    this.#byKey.set(node.key, uid);
    const before = existing?.owners ?? [];
    if (!sameOwners(before, node.owners)) {
      this.#unlink(node, before);
      for (const ref of node.owners) this.#dependentSet(ref.uid).add(uid);
      // A dependent that names other owners (or differently) may unblock an owner waiting for its dependents.
      this.#addWaitingOwners(before, dirty);
      this.#addWaitingOwners(node.owners, dirty);
    }
    // As kube's processGraphChanges, a dependent is looked at again when it is new or its references changed, not on a
    // write that keeps them (a status update); an object being deleted is looked at on each of its writes.
    const referencesNew = !existing || !sameOwners(before, node.owners);
    if ((referencesNew && node.owners.length > 0) || node.beingDeleted) dirty.add(uid);
    // An owner starting foreground deletion has its dependents deleted (processTransitions).
    if (node.beingDeleted && !existing?.beingDeleted && node.finalizers.includes(FOREGROUND_FINALIZER)) {
      for (const dependent of this.#dependents.get(uid) ?? []) dirty.add(dependent);
    }
    return dirty;
  }

  #remove(node: GraphNode): void {
    this.#byUid.delete(node.uid);
    if (this.#byKey.get(node.key) === node.uid) this.#byKey.delete(node.key);
    this.#unlink(node, node.owners);
  }

  #markAbsent(uid: string): void {
    this.#absent.add(uid);
    forgetOldest(this.#absent, ABSENT_OWNERS_KEPT);
  }

  #dependentSet(owner: string): Set<string> {
    let set = this.#dependents.get(owner);
    if (!set) this.#dependents.set(owner, set = new Set());
    return set;
  }

  #unlink(node: GraphNode, owners: OwnerReference[]): void {
    for (const ref of owners) {
      const set = this.#dependents.get(ref.uid);
      if (!set) continue;
      set.delete(node.uid);
      if (set.size === 0) this.#dependents.delete(ref.uid);
    }
  }

  /** The owners among `refs` that wait for their dependents to go (kube's isDeletingDependents). */
  #addWaitingOwners(refs: OwnerReference[], dirty: Set<string>): void {
    for (const ref of refs) {
      const owner = this.#byUid.get(ref.uid);
      if (owner?.beingDeleted && owner.finalizers.includes(FOREGROUND_FINALIZER)) dirty.add(ref.uid);
    }
  }
}

function ownerIdentity(ref: OwnerReference, namespace: string): string {
  return `${ref.apiVersion}/${ref.kind}/${namespace}/${ref.name}`;
}

function nodeOf(type: ResourceType, key: string, uid: string, object: KubeObject): GraphNode {
  const metadata = object.metadata;
  return {
    type,
    key,
    uid,
    namespace: metadata.namespace ?? "",
    name: String(metadata.name),
    owners: metadata.ownerReferences ?? [],
    finalizers: metadata.finalizers ?? [],
    beingDeleted: metadata.deletionTimestamp !== undefined && metadata.deletionTimestamp !== null,
  };
}

/** kube's referencesDiffs finding nothing added, removed or changed. */
function sameOwners(a: OwnerReference[], b: OwnerReference[]): boolean {
  if (a.length !== b.length) return false;
  return a.every((ref, i) => deepEqual(ref, b[i]));
}

/** The resource type an ownerReference names, if the server serves it. */
export function ownerType(catalog: Catalog, ref: Pick<OwnerReference, "apiVersion" | "kind">): ResourceType | undefined {
  const [group, version] = ref.apiVersion.includes("/") ? ref.apiVersion.split("/") : ["", ref.apiVersion];
  return catalog.byKind(group, version, ref.kind);
}

export function withoutOwners(obj: KubeObject, uids: Set<string>): KubeObject {
  const next = structuredClone(obj);
  const remaining = (obj.metadata.ownerReferences ?? []).filter((ref) => !uids.has(ref.uid));
  if (remaining.length > 0) next.metadata.ownerReferences = remaining;
  else delete next.metadata.ownerReferences;
  return next;
}
