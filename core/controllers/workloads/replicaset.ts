/**
 * What a ReplicaSet or ReplicationController needs done (kube's ReplicaSetController.manageReplicas and
 * calculateStatus): how many pods to create, which to delete, and the status its pods show now.
 */
import { labelSelectorFromObject, matchesLabels, selectorFromSet } from "../../api/label-selector.ts";
import type { KubeObject } from "../../api/types.ts";
import { deletionOrder, isPodActive, isPodAvailable, isPodReady } from "./pod-state.ts";
import type { PodTemplate } from "./owner.ts";

export interface ReplicaSetStatus {
  replicas: number;
  fullyLabeledReplicas: number;
  readyReplicas: number;
  availableReplicas: number;
  observedGeneration: number;
  conditions?: unknown[];
}

export interface ReplicaSetPlan {
  create: number;
  remove: KubeObject[];
  status: ReplicaSetStatus;
}

interface ReplicaSetSpec {
  replicas?: number;
  minReadySeconds?: number;
  selector?: unknown;
  template?: PodTemplate;
}

export function specOfReplicaSet(rs: KubeObject): ReplicaSetSpec {
  return (rs.spec ?? {}) as ReplicaSetSpec;
}

/** Whether a pod's labels match the set's selector (a ReplicationController's is a plain label map). */
export function selectsPod(rs: KubeObject, labels: Record<string, string> | undefined): boolean {
  const selector = specOfReplicaSet(rs).selector;
  if (rs.kind === "ReplicationController") {
    const wanted = (selector ?? specOfReplicaSet(rs).template?.metadata?.labels ?? {}) as Record<string, string>;
    // An empty set would select everything; a controller with no selector selects nothing.
    return Object.keys(wanted).length > 0 && matchesLabels(selectorFromSet(wanted), labels);
  }
  return matchesLabels(labelSelectorFromObject(selector as Parameters<typeof labelSelectorFromObject>[0]), labels);
}

/** `owned` are the pods the set controls (terminating and finished ones included). */
export function planReplicaSet(rs: KubeObject, owned: KubeObject[], now: number): ReplicaSetPlan {
  const spec = specOfReplicaSet(rs);
  const active = owned.filter(isPodActive);
  const wanted = spec.replicas ?? 1;
  const diff = active.length - wanted;
  const remove = diff > 0 ? [...active].sort(deletionOrder).slice(0, diff) : [];
  return { create: Math.max(-diff, 0), remove, status: replicaSetStatus(rs, active, now) };
}

function replicaSetStatus(rs: KubeObject, active: KubeObject[], now: number): ReplicaSetStatus {
  const spec = specOfReplicaSet(rs);
  const templateLabels = spec.template?.metadata?.labels ?? {};
  const fullyLabeled = active.filter((pod) => Object.entries(templateLabels).every(([k, v]) => pod.metadata.labels?.[k] === v));
  const status: ReplicaSetStatus = {
    replicas: active.length,
    fullyLabeledReplicas: fullyLabeled.length,
    readyReplicas: active.filter(isPodReady).length,
    availableReplicas: active.filter((pod) => isPodAvailable(pod, spec.minReadySeconds ?? 0, now)).length,
    observedGeneration: rs.metadata.generation ?? 0,
  };
  const conditions = (rs.status as { conditions?: unknown[] } | undefined)?.conditions;
  if (conditions?.length) status.conditions = conditions;
  return status;
}
