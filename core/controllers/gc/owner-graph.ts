/** Every object of every type, indexed by uid, with who references whom (the garbage collector's graph). */
import type { KubeObject, OwnerReference } from "../../api/types.ts";
import type { Catalog } from "../../registry/catalog.ts";
import type { ResourceType } from "../../api/resource-type.ts";

export interface GraphNode {
  type: ResourceType;
  object: KubeObject;
}

export interface OwnerGraph {
  byUid: Map<string, GraphNode>;
  /** Owner uid → the nodes whose ownerReferences name it. */
  dependents: Map<string, GraphNode[]>;
}

export function buildOwnerGraph(nodes: GraphNode[]): OwnerGraph {
  const byUid = new Map<string, GraphNode>();
  const dependents = new Map<string, GraphNode[]>();
  for (const node of nodes) {
    byUid.set(String(node.object.metadata.uid), node);
    for (const ref of node.object.metadata.ownerReferences ?? []) {
      const list = dependents.get(ref.uid) ?? [];
      list.push(node);
      dependents.set(ref.uid, list);
    }
  }
  return { byUid, dependents };
}

/** The resource type an ownerReference names, if the server serves it. */
export function ownerType(catalog: Catalog, ref: OwnerReference): ResourceType | undefined {
  const [group, version] = ref.apiVersion.includes("/") ? ref.apiVersion.split("/") : ["", ref.apiVersion];
  return catalog.byKind(group, version, ref.kind);
}

/** Whether the graph node matches the reference (kube compares the uid, and the kind and name it names). */
export function isOwnerPresent(graph: OwnerGraph, ref: OwnerReference): boolean {
  const owner = graph.byUid.get(ref.uid);
  return owner !== undefined && owner.object.metadata.name === ref.name && owner.type.kind === ref.kind;
}

export function withoutOwners(obj: KubeObject, uids: Set<string>): KubeObject {
  const next = structuredClone(obj);
  const remaining = (obj.metadata.ownerReferences ?? []).filter((ref) => !uids.has(ref.uid));
  if (remaining.length > 0) next.metadata.ownerReferences = remaining;
  else delete next.metadata.ownerReferences;
  return next;
}

export function hasFinalizer(obj: KubeObject, finalizer: string): boolean {
  return (obj.metadata.finalizers ?? []).includes(finalizer);
}
