/**
 * A StatefulSet's pods and claims (kube's statefulset_utils.go): pod `<set>-<ordinal>` with a stable hostname
 * under the governing Service, and for each volumeClaimTemplate a PersistentVolumeClaim
 * `<claim>-<set>-<ordinal>` mounted in place of the template's volume of that name.
 */
import type { KubeObject } from "../../api/types.ts";
import { CONTROLLER_REVISION_HASH } from "./controller-revision.ts";
import { podFromTemplate, type PodTemplate } from "./owner.ts";

export const POD_NAME_LABEL = "statefulset.kubernetes.io/pod-name";

export interface StatefulSetSpec {
  replicas?: number;
  selector?: { matchLabels?: Record<string, string> };
  template?: PodTemplate;
  serviceName?: string;
  podManagementPolicy?: string;
  updateStrategy?: { type?: string; rollingUpdate?: { partition?: number } };
  volumeClaimTemplates?: KubeObject[];
  revisionHistoryLimit?: number;
  minReadySeconds?: number;
}

export function statefulSetSpec(set: KubeObject): StatefulSetSpec {
  return (set.spec ?? {}) as StatefulSetSpec;
}

export function statefulPodName(set: KubeObject, ordinal: number): string {
  return `${set.metadata.name}-${ordinal}`;
}

/** The pod's ordinal, or -1 when its name is not `<set>-<number>` (kube's getParentNameAndOrdinal). */
export function ordinalOf(set: KubeObject, pod: KubeObject): number {
  const match = /^(.*)-(\d+)$/.exec(String(pod.metadata.name));
  if (!match || match[1] !== set.metadata.name) return -1;
  const ordinal = Number(match[2]);
  return Number.isSafeInteger(ordinal) ? ordinal : -1;
}

export function podRevision(pod: KubeObject): string {
  return pod.metadata.labels?.[CONTROLLER_REVISION_HASH] ?? "";
}

function claimName(claim: KubeObject, set: KubeObject, ordinal: number): string {
  return `${claim.metadata?.name}-${statefulPodName(set, ordinal)}`;
}

/** The claims the pod at `ordinal` mounts, labelled with the set's matchLabels. */
export function claimsFor(set: KubeObject, ordinal: number): KubeObject[] {
  const matchLabels = statefulSetSpec(set).selector?.matchLabels;
  return (statefulSetSpec(set).volumeClaimTemplates ?? []).map((claim) => {
    const metadata: KubeObject["metadata"] = {
      name: claimName(claim, set, ordinal),
      namespace: set.metadata.namespace,
      labels: { ...claim.metadata?.labels, ...matchLabels },
    };
    if (claim.metadata?.annotations) metadata.annotations = { ...claim.metadata.annotations };
    return { apiVersion: "v1", kind: "PersistentVolumeClaim", metadata, spec: structuredClone(claim.spec ?? {}) };
  });
}

/** The pod at `ordinal` made from `template` (the template of revision `revision`). */
export function newStatefulSetPod(set: KubeObject, template: PodTemplate, options: { ordinal: number; revision: string }): KubeObject {
  const name = statefulPodName(set, options.ordinal);
  const pod = podFromTemplate(template, set, { name, labels: { [POD_NAME_LABEL]: name, [CONTROLLER_REVISION_HASH]: options.revision } });
  const spec = pod.spec as { hostname?: string; subdomain?: string; volumes?: { name: string }[] };
  spec.hostname = name;
  const serviceName = statefulSetSpec(set).serviceName;
  if (serviceName) spec.subdomain = serviceName;
  const templates = statefulSetSpec(set).volumeClaimTemplates ?? [];
  if (templates.length > 0) {
    const claimed = new Set(templates.map((claim) => String(claim.metadata?.name)));
    const claimVolumes = templates.map((claim) => ({
      name: String(claim.metadata?.name),
      persistentVolumeClaim: { claimName: claimName(claim, set, options.ordinal) },
    }));
    spec.volumes = [...claimVolumes, ...(spec.volumes ?? []).filter((v) => !claimed.has(v.name))];
  }
  return pod;
}
