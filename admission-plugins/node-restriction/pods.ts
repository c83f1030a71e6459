/**
 * NodeRestriction for pods (kube's admitPod, admitPodCreate, admitPodStatus, admitPodEviction): a node may
 * create only mirror pods bound to itself, owned by its Node and using no other API object; delete and evict
 * only pods bound to itself; and change only the status of those.
 */
import { podReferences } from "../../core/api/pod-references.ts";
import type { KubeObject, OwnerReference } from "../../core/api/types.ts";
import { semanticEqual } from "./_semantic-equal.ts";
import { forbidden, listerNotFound, type NodeRequest } from "./_request.ts";

const MIRROR_POD_ANNOTATION = "kubernetes.io/config.mirror";

interface PodSpec {
  nodeName?: string;
  serviceAccountName?: string;
  volumes?: { persistentVolumeClaim?: unknown }[];
}

const specOf = (pod: KubeObject): PodSpec => (pod.spec ?? {}) as PodSpec;

/** kube's Admit switch over pod subresources. */
export async function admitPodRequest(request: NodeRequest): Promise<void> {
  const { subresource } = request.attributes;
  if (subresource === "") return admitPod(request);
  if (subresource === "status") return admitPodStatus(request);
  if (subresource === "eviction") return admitPodEviction(request);
  throw forbidden(request, `unexpected pod subresource "${subresource}", only 'status' and 'eviction' are allowed`);
}

async function admitPod(request: NodeRequest): Promise<void> {
  const { node, attributes } = request;
  if (attributes.operation === "CREATE") return admitMirrorPodCreate(request, attributes.object!);
  if (attributes.operation === "DELETE") {
    if (specOf(attributes.oldObject!).nodeName !== node) {
      throw forbidden(request, `node "${node}" can only delete pods with spec.nodeName set to itself`);
    }
    return;
  }
  throw forbidden(request, `unexpected operation "${attributes.operation}", node "${node}" can only create and delete mirror pods`);
}

async function admitMirrorPodCreate(request: NodeRequest, pod: KubeObject): Promise<void> {
  const { node } = request;
  if (pod.metadata.annotations?.[MIRROR_POD_ANNOTATION] === undefined) {
    throw forbidden(request, `pod does not have "${MIRROR_POD_ANNOTATION}" annotation, node "${node}" can only create mirror pods`);
  }
  const spec = specOf(pod);
  if (spec.nodeName !== node) throw forbidden(request, `node "${node}" can only create pods with spec.nodeName set to itself`);
  await checkOwnedByNode(request, pod.metadata.ownerReferences ?? []);
  // Nothing the node could read through the Node authorizer's graph once the pod exists.
  if (spec.serviceAccountName) throw forbidden(request, `node "${node}" can not create pods that reference a service account`);
  const references = podReferences(pod);
  if (references.secrets.length > 0) throw forbidden(request, `node "${node}" can not create pods that reference secrets`);
  if (references.configMaps.length > 0) throw forbidden(request, `node "${node}" can not create pods that reference configmaps`);
  if ((spec.volumes ?? []).some((volume) => volume.persistentVolumeClaim)) {
    throw forbidden(request, `node "${node}" can not create pods that reference persistentvolumeclaims`);
  }
}

/** One controller owner reference to the node's own Node object, with its current uid. */
async function checkOwnedByNode(request: NodeRequest, owners: OwnerReference[]): Promise<void> {
  const { node } = request;
  if (owners.length > 1) throw forbidden(request, `node "${node}" can only create pods with a single owner reference set to itself`);
  const owner = owners[0];
  if (!owner || owner.apiVersion !== "v1" || owner.kind !== "Node" || owner.name !== node) {
    throw forbidden(request, `node "${node}" can only create pods with an owner reference set to itself`);
  }
  if (owner.controller !== true) {
    throw forbidden(request, `node "${node}" can only create pods with a controller owner reference set to itself`);
  }
  if (owner.blockOwnerDeletion === true) throw forbidden(request, `node "${node}" must not set blockOwnerDeletion on an owner reference`);
  const nodeObject = await request.client.get({ group: "", version: "v1", resource: "nodes", name: node });
  if (!nodeObject) throw listerNotFound("node", node);
  // kube's message names the owner reference's uid as "expected".
  if (owner.uid !== nodeObject.metadata.uid) {
    throw forbidden(request, `node ${node} UID mismatch: expected ${owner.uid} got ${nodeObject.metadata.uid ?? ""}`);
  }
}

function admitPodStatus(request: NodeRequest): void {
  const { node, attributes } = request;
  if (attributes.operation !== "UPDATE") throw forbidden(request, `unexpected operation "${attributes.operation}"`);
  const oldPod = attributes.oldObject!;
  if (specOf(oldPod).nodeName !== node) {
    throw forbidden(request, `node "${node}" can only update pod status for pods with spec.nodeName set to itself`);
  }
  if (!semanticEqual(oldPod.metadata.labels, attributes.object!.metadata.labels)) {
    throw forbidden(request, `node "${node}" cannot update labels through pod status`);
  }
}

async function admitPodEviction(request: NodeRequest): Promise<void> {
  const { node, attributes } = request;
  if (attributes.operation !== "CREATE") throw forbidden(request, `unexpected operation ${attributes.operation}`);
  // The pod named in the URL, else the one the Eviction names.
  const podName = attributes.name || String(attributes.object?.metadata.name ?? "");
  if (podName === "") throw forbidden(request, "could not determine pod from request data");
  const pod = await request.client.get({ group: "", version: "v1", resource: "pods", namespace: attributes.namespace, name: podName });
  if (!pod) throw listerNotFound("pod", podName);
  if (specOf(pod).nodeName !== node) throw forbidden(request, `node ${node} can only evict pods with spec.nodeName set to itself`);
}
