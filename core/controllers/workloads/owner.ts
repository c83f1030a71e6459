/** Controller ownership (kube's metav1.GetControllerOf / NewControllerRef) and pods made from templates. */
import type { KubeObject, OwnerReference } from "../../api/types.ts";

export function controllerRefOf(obj: KubeObject): OwnerReference | undefined {
  return obj.metadata.ownerReferences?.find((ref) => ref.controller === true);
}

export function isControlledBy(obj: KubeObject, owner: KubeObject): boolean {
  return controllerRefOf(obj)?.uid === owner.metadata.uid;
}

export function newControllerRef(owner: KubeObject): OwnerReference {
  return {
    apiVersion: String(owner.apiVersion),
    kind: String(owner.kind),
    name: String(owner.metadata.name),
    uid: String(owner.metadata.uid),
    controller: true,
    blockOwnerDeletion: true,
  };
}

export interface PodTemplate {
  metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> };
  spec?: Record<string, unknown>;
}

/** A new Pod from a template, controlled by `owner` (kube's GetPodFromTemplate); name or generateName from `naming`. */
export function podFromTemplate(
  template: PodTemplate,
  owner: KubeObject,
  naming: { name?: string; generateName?: string; labels?: Record<string, string> },
): KubeObject {
  const metadata: KubeObject["metadata"] = {
    namespace: owner.metadata.namespace,
    labels: { ...template.metadata?.labels, ...naming.labels },
    ownerReferences: [newControllerRef(owner)],
  };
  if (naming.name) metadata.name = naming.name;
  else metadata.generateName = naming.generateName ?? `${owner.metadata.name}-`;
  if (template.metadata?.annotations) metadata.annotations = { ...template.metadata.annotations };
  return { apiVersion: "v1", kind: "Pod", metadata, spec: structuredClone(template.spec ?? {}) };
}
