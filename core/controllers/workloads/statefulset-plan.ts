/**
 * What a StatefulSet needs done now (kube 1.26's defaultStatefulSetControl.updateStatefulSet), as a pure
 * function of its pods: create missing ordinals, replace failed pods, delete ordinals beyond replicas from the
 * highest down, and under RollingUpdate replace the highest-ordinal pod not at the update revision. With
 * OrderedReady each step waits for every lower ordinal to be Running and Ready; Parallel does not wait.
 */
import type { KubeObject } from "../../api/types.ts";
import { isPodAvailable, isPodReady, podPhase } from "./pod-state.ts";
import type { PodTemplate } from "./owner.ts";
import { newStatefulSetPod, ordinalOf, podRevision, statefulSetSpec } from "./statefulset-pods.ts";

export interface Revision {
  name: string;
  template: PodTemplate;
}

export type StatefulSetAction = { create: KubeObject; ordinal: number } | { remove: KubeObject };

export interface StatefulSetStatus {
  observedGeneration?: number;
  replicas: number;
  readyReplicas: number;
  currentReplicas: number;
  updatedReplicas: number;
  availableReplicas: number;
  currentRevision: string;
  updateRevision: string;
  collisionCount: number;
  conditions?: unknown[];
}

export interface StatefulSetPlan {
  actions: StatefulSetAction[];
  status: StatefulSetStatus;
}

interface Slot {
  pod: KubeObject;
  stored: boolean;
}

const isTerminating = (pod: KubeObject) => pod.metadata.deletionTimestamp !== undefined;
const isRunningAndReady = (pod: KubeObject) => podPhase(pod) === "Running" && isPodReady(pod);

export function planStatefulSet(
  set: KubeObject,
  pods: KubeObject[],
  revisions: { current: Revision; update: Revision },
  now: number,
): StatefulSetPlan {
  const spec = statefulSetSpec(set);
  const minReadySeconds = spec.minReadySeconds ?? 0;
  const isAvailable = (pod: KubeObject) => isRunningAndReady(pod) && isPodAvailable(pod, minReadySeconds, now);
  const isUnavailable = (pod: KubeObject) => !isAvailable(pod) || isTerminating(pod);
  const members = pods.filter((pod) => ordinalOf(set, pod) >= 0);
  const status = statefulSetStatus(set, members, revisions, isAvailable);
  const actions: StatefulSetAction[] = [];
  const plan = () => ({ actions, status: completeRollingUpdate(set, status) });

  const replicaCount = spec.replicas ?? 1;
  const slots: Slot[] = Array.from(
    { length: replicaCount },
    (_, ordinal) => ({ pod: versionedPod(set, revisions, ordinal), stored: false }),
  );
  const condemned: KubeObject[] = [];
  for (const pod of members) {
    const ordinal = ordinalOf(set, pod);
    if (ordinal < replicaCount) slots[ordinal] = { pod, stored: true };
    else condemned.push(pod);
  }
  condemned.sort((a, b) => ordinalOf(set, b) - ordinalOf(set, a));
  if (set.metadata.deletionTimestamp) return plan();

  const monotonic = spec.podManagementPolicy !== "Parallel";
  const firstUnavailable = slots.map((s) => s.pod).find(isUnavailable) ?? [...condemned].reverse().find(isUnavailable);
  for (const [ordinal, { pod, stored }] of slots.entries()) {
    const phase = podPhase(pod);
    if (stored && (phase === "Failed" || phase === "Succeeded")) {
      // A finished pod is deleted; its replacement is created once it is gone.
      if (!isTerminating(pod)) actions.push({ remove: pod });
      if (monotonic) return plan();
      continue;
    }
    if (!stored) {
      actions.push({ create: pod, ordinal });
      if (monotonic) return plan();
    }
    if (monotonic && (isTerminating(pod) || !isAvailable(pod))) return plan();
  }
  for (const pod of condemned) {
    if (isTerminating(pod)) {
      if (monotonic) return plan();
      continue;
    }
    if (monotonic && !isAvailable(pod) && pod !== firstUnavailable) return plan();
    actions.push({ remove: pod });
    if (monotonic) return plan();
  }
  if (spec.updateStrategy?.type === "OnDelete") return plan();
  const partition = spec.updateStrategy?.rollingUpdate?.partition ?? 0;
  for (let target = slots.length - 1; target >= partition; target--) {
    const pod = slots[target].pod;
    if (podRevision(pod) !== revisions.update.name && !isTerminating(pod)) {
      actions.push({ remove: pod });
      status.currentReplicas--;
      return plan();
    }
    if (isUnavailable(pod)) return plan();
  }
  return plan();
}

/**
 * kube's newVersionedStatefulSetPod: ordinals below the partition (or, without rollingUpdate parameters, below
 * the current replica count) are made at the current revision, the rest at the update revision.
 */
function versionedPod(set: KubeObject, revisions: { current: Revision; update: Revision }, ordinal: number): KubeObject {
  const strategy = statefulSetSpec(set).updateStrategy;
  const currentReplicas = (set.status as { currentReplicas?: number } | undefined)?.currentReplicas ?? 0;
  const atCurrent = strategy?.type === "RollingUpdate" &&
    (strategy.rollingUpdate ? ordinal < (strategy.rollingUpdate.partition ?? 0) : ordinal < currentReplicas);
  const revision = atCurrent ? revisions.current : revisions.update;
  return newStatefulSetPod(set, revision.template, { ordinal, revision: revision.name });
}

function statefulSetStatus(
  set: KubeObject,
  members: KubeObject[],
  revisions: { current: Revision; update: Revision },
  isAvailable: (pod: KubeObject) => boolean,
): StatefulSetStatus {
  const previous = (set.status ?? {}) as Partial<StatefulSetStatus>;
  const live = members.filter((pod) => !isTerminating(pod));
  const status: StatefulSetStatus = {
    observedGeneration: set.metadata.generation,
    replicas: members.length,
    readyReplicas: members.filter(isRunningAndReady).length,
    availableReplicas: members.filter(isAvailable).length,
    currentReplicas: live.filter((pod) => podRevision(pod) === revisions.current.name).length,
    updatedReplicas: live.filter((pod) => podRevision(pod) === revisions.update.name).length,
    currentRevision: revisions.current.name,
    updateRevision: revisions.update.name,
    collisionCount: previous.collisionCount ?? 0,
  };
  if (previous.conditions?.length) status.conditions = previous.conditions;
  return status;
}

/** Once every pod is updated and ready, the update revision becomes the current one. */
function completeRollingUpdate(set: KubeObject, status: StatefulSetStatus): StatefulSetStatus {
  const rolling = statefulSetSpec(set).updateStrategy?.type !== "OnDelete";
  if (!rolling || status.updatedReplicas !== status.replicas || status.readyReplicas !== status.replicas) return status;
  return { ...status, currentReplicas: status.updatedReplicas, currentRevision: status.updateRevision };
}
