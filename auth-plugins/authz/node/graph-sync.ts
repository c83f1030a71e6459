/** Keeps a NodeGraph current by following Pods, PersistentVolumes and VolumeAttachments (kube's graph_populator). */
import type { CollectionEvent, CollectionFollow, ReadOnlyClient } from "../../../plugins/sdk.ts";
import type { NodeGraph } from "./graph.ts";

type Apply = (graph: NodeGraph, event: CollectionEvent) => void;

const name = (e: CollectionEvent) => String(e.object.metadata.name);
const namespace = (e: CollectionEvent) => String(e.object.metadata.namespace ?? "");

const FOLLOWED: { group: string; resource: string; apply: Apply }[] = [
  {
    group: "",
    resource: "pods",
    apply: (graph, e) => (e.type === "DELETED" ? graph.deletePod(namespace(e), name(e)) : graph.setPod(e.object)),
  },
  {
    group: "",
    resource: "persistentvolumes",
    apply: (graph, e) => (e.type === "DELETED" ? graph.deletePersistentVolume(name(e)) : graph.setPersistentVolume(e.object)),
  },
  {
    group: "storage.k8s.io",
    resource: "volumeattachments",
    apply: (graph, e) => (e.type === "DELETED" ? graph.deleteVolumeAttachment(name(e)) : graph.setVolumeAttachment(e.object)),
  },
];

/** Resolves once the graph holds every current object; stop() ends the follows. */
export async function syncNodeGraph(client: ReadOnlyClient, graph: NodeGraph): Promise<CollectionFollow> {
  const follows = await Promise.all(
    FOLLOWED.map(({ group, resource, apply }) => client.watch({ group, version: "v1", resource }, (e) => apply(graph, e))),
  );
  return { stop: () => follows.forEach((f) => f.stop()) };
}
