/**
 * Which objects each node may read (kube's node authorizer graph, flattened): a Pod bound to a node relates the
 * node to the Pod and to the Secrets, ConfigMaps, claims and service account it uses; a PersistentVolume whose
 * claimRef names such a claim, and the Secrets it mounts with, follow (kube's Graph.AddPV: only claimRef links a
 * volume, never a claim's spec.volumeName, which whoever creates the claim controls). Counts per (object, node) make updates
 * and lookups O(references), whatever the number of Pods sharing an object.
 */
import type { KubeObject } from "../../../plugins/sdk.ts";
import { persistentVolumeSecrets, podReferences } from "../../../core/api/pod-references.ts";

export type GraphKind =
  | "pod"
  | "secret"
  | "configmap"
  | "persistentvolumeclaim"
  | "persistentvolume"
  | "serviceaccount"
  | "volumeattachment";

const keyOf = (namespace: string, name: string) => `${namespace}/${name}`;
const namespaceOf = (o: KubeObject) => String(o.metadata.namespace ?? "");
const nameOf = (o: KubeObject) => String(o.metadata.name ?? "");
const field = (o: KubeObject, path: string[]): string => {
  let value: unknown = o;
  for (const step of path) value = value && typeof value === "object" ? (value as Record<string, unknown>)[step] : undefined;
  return typeof value === "string" ? value : "";
};

function addTo<K, V>(index: Map<K, Set<V>>, key: K, value: V): void {
  const set = index.get(key) ?? new Set<V>();
  index.set(key, set.add(value));
}

function removeFrom<K, V>(index: Map<K, Set<V>>, key: K, value: V): void {
  const set = index.get(key);
  if (set?.delete(value) && set.size === 0) index.delete(key);
}

export class NodeGraph {
  /** Pod key → its node and the `<kind>:<namespace>/<name>` references it contributes. */
  #pods = new Map<string, { node: string; refs: string[] }>();
  /** Reference → node → number of that node's Pods holding it. */
  #nodesByRef = new Map<string, Map<string, number>>();
  /** PersistentVolume name → the claim its claimRef names and the Secrets it mounts with. */
  #volumes = new Map<string, { claim: string; secrets: string[] }>();
  #volumesBySecret = new Map<string, Set<string>>();
  /** VolumeAttachment name → the node it attaches to. */
  #attachments = new Map<string, string>();

  setPod(pod: KubeObject): void {
    this.deletePod(namespaceOf(pod), nameOf(pod));
    const node = field(pod, ["spec", "nodeName"]);
    if (node === "") return;
    const namespace = namespaceOf(pod);
    const refs = podReferences(pod);
    const ref = (kind: GraphKind, name: string) => `${kind}:${keyOf(namespace, name)}`;
    const all = [
      ref("pod", nameOf(pod)),
      ...refs.secrets.map((n) => ref("secret", n)),
      ...refs.configMaps.map((n) => ref("configmap", n)),
      ...refs.claims.map((n) => ref("persistentvolumeclaim", n)),
      ...(refs.serviceAccount ? [ref("serviceaccount", refs.serviceAccount)] : []),
    ];
    this.#pods.set(keyOf(namespace, nameOf(pod)), { node, refs: all });
    for (const r of all) {
      const counts = this.#nodesByRef.get(r) ?? new Map<string, number>();
      this.#nodesByRef.set(r, counts.set(node, (counts.get(node) ?? 0) + 1));
    }
  }

  deletePod(namespace: string, name: string): void {
    const key = keyOf(namespace, name);
    const pod = this.#pods.get(key);
    if (!pod) return;
    this.#pods.delete(key);
    for (const r of pod.refs) {
      const counts = this.#nodesByRef.get(r)!;
      const left = counts.get(pod.node)! - 1;
      if (left > 0) counts.set(pod.node, left);
      else counts.delete(pod.node);
      if (counts.size === 0) this.#nodesByRef.delete(r);
    }
  }

  setPersistentVolume(pv: KubeObject): void {
    this.deletePersistentVolume(nameOf(pv));
    const claimName = field(pv, ["spec", "claimRef", "name"]);
    const claim = claimName ? keyOf(field(pv, ["spec", "claimRef", "namespace"]), claimName) : "";
    const secrets = persistentVolumeSecrets(pv);
    this.#volumes.set(nameOf(pv), { claim, secrets });
    for (const secret of secrets) addTo(this.#volumesBySecret, secret, nameOf(pv));
  }

  deletePersistentVolume(name: string): void {
    const volume = this.#volumes.get(name);
    if (!volume) return;
    this.#volumes.delete(name);
    for (const secret of volume.secrets) removeFrom(this.#volumesBySecret, secret, name);
  }

  /** A VolumeAttachment relates only the node in its spec.nodeName (kube's Graph.AddVolumeAttachment). */
  setVolumeAttachment(attachment: KubeObject): void {
    const node = field(attachment, ["spec", "nodeName"]);
    if (node === "") this.#attachments.delete(nameOf(attachment));
    else this.#attachments.set(nameOf(attachment), node);
  }

  deleteVolumeAttachment(name: string): void {
    this.#attachments.delete(name);
  }

  /** Whether `node` may reach the object: a path object → ... → node exists. */
  relates(node: string, kind: GraphKind, namespace: string, name: string): boolean {
    if (kind === "volumeattachment") return this.#attachments.get(name) === node;
    if (kind === "persistentvolume") {
      const claim = this.#volumes.get(name)?.claim;
      return claim !== undefined && claim !== "" && this.#direct(node, `persistentvolumeclaim:${claim}`);
    }
    if (this.#direct(node, `${kind}:${keyOf(namespace, name)}`)) return true;
    if (kind !== "secret") return false;
    return [...(this.#volumesBySecret.get(keyOf(namespace, name)) ?? [])].some((pv) => this.relates(node, "persistentvolume", "", pv));
  }

  #direct(node: string, ref: string): boolean {
    return this.#nodesByRef.get(ref)?.has(node) ?? false;
  }
}
