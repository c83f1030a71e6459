/**
 * Writes through the status subresource (kube's <kind>StatusStrategy.ValidateUpdate: apps ValidateDeploymentStatusUpdate,
 * ValidateReplicaSetStatusUpdate, ValidateStatefulSetStatusUpdate, ValidateDaemonSetStatusUpdate, core's
 * ValidateReplicationControllerStatusUpdate, batch ValidateJobUpdateStatus, autoscaling
 * ValidateHorizontalPodAutoscalerStatusUpdate, policy ValidatePodDisruptionBudgetStatusUpdate): the status alone is
 * checked, never the spec.
 */
import type { FieldError } from "../../api/errors.ts";
import type { KubeObject } from "../../api/types.ts";
import { validateConditions } from "./_conditions.ts";
import { duplicate, invalid, isSet, list, nonNegative, record } from "./_field.ts";

type Status = Record<string, unknown>;

const ABOVE_REPLICAS = "cannot be greater than status.replicas";

/** A Go int32/int64 counter: absent reads (and prints) as 0. */
function count(value: unknown): number {
  return typeof value === "number" ? value : 0;
}

/** ValidateNonnegativeField on each named counter under `status.`. */
function nonNegativeCounters(status: Status, names: readonly string[]): FieldError[] {
  return names.flatMap((name) => nonNegative(status[name], `status.${name}`));
}

/** Each named counter may not exceed status.replicas. */
function notAboveReplicas(status: Status, names: readonly string[]): FieldError[] {
  const replicas = count(status.replicas);
  return names.flatMap((name) => count(status[name]) > replicas ? [invalid(`status.${name}`, count(status[name]), ABOVE_REPLICAS)] : []);
}

/** availableReplicas may not exceed readyReplicas; StatefulSet's message names the full path. */
function availableNotAboveReady(status: Status, detail: string): FieldError[] {
  return count(status.availableReplicas) > count(status.readyReplicas)
    ? [invalid("status.availableReplicas", count(status.availableReplicas), detail)]
    : [];
}

/** IsDecremented(new, old): dropping a set collisionCount counts as a decrement to 0. */
function collisionCountDecremented(status: Status, oldStatus: Status): FieldError[] {
  if (!isSet(oldStatus.collisionCount)) return [];
  const value = isSet(status.collisionCount) ? count(status.collisionCount) : 0;
  return !isSet(status.collisionCount) || value < count(oldStatus.collisionCount)
    ? [invalid("status.collisionCount", value, "cannot be decremented")]
    : [];
}

const statusOf = (obj: KubeObject): Status => record(obj.status);

/** ValidateDeploymentStatusUpdate → ValidateDeploymentStatus, plus the collisionCount decrement rule. */
export function validateDeploymentStatusUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
  const status = statusOf(obj);
  return [
    ...nonNegativeCounters(status, [
      "observedGeneration",
      "replicas",
      "updatedReplicas",
      "readyReplicas",
      "availableReplicas",
      "unavailableReplicas",
      "collisionCount",
    ]),
    ...notAboveReplicas(status, ["updatedReplicas", "readyReplicas", "availableReplicas"]),
    ...availableNotAboveReady(status, "cannot be greater than readyReplicas"),
    ...collisionCountDecremented(status, statusOf(old)),
  ];
}

/**
 * ValidateReplicaSetStatusUpdate → ValidateReplicaSetStatus; core's ValidateReplicationControllerStatus has the same
 * counters, paths and messages.
 */
export function validateReplicaSetStatusUpdate(obj: KubeObject): FieldError[] {
  const status = statusOf(obj);
  return [
    ...nonNegativeCounters(status, ["replicas", "fullyLabeledReplicas", "readyReplicas", "availableReplicas", "observedGeneration"]),
    ...notAboveReplicas(status, ["fullyLabeledReplicas", "readyReplicas", "availableReplicas"]),
    ...availableNotAboveReady(status, "cannot be greater than readyReplicas"),
  ];
}

/** ValidateStatefulSetStatusUpdate → ValidateStatefulSetStatus, plus the collisionCount decrement rule. */
export function validateStatefulSetStatusUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
  const status = statusOf(obj);
  return [
    ...nonNegativeCounters(status, [
      "replicas",
      "readyReplicas",
      "currentReplicas",
      "updatedReplicas",
      "availableReplicas",
      "observedGeneration",
      "collisionCount",
    ]),
    ...notAboveReplicas(status, ["readyReplicas", "currentReplicas", "updatedReplicas", "availableReplicas"]),
    ...availableNotAboveReady(status, "cannot be greater than status.readyReplicas"),
    ...collisionCountDecremented(status, statusOf(old)),
  ];
}

/** ValidateDaemonSetStatusUpdate → validateDaemonSetStatus, plus the collisionCount decrement rule. */
export function validateDaemonSetStatusUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
  const status = statusOf(obj);
  return [
    ...nonNegativeCounters(status, [
      "currentNumberScheduled",
      "numberMisscheduled",
      "desiredNumberScheduled",
      "numberReady",
      "observedGeneration",
      "updatedNumberScheduled",
      "numberAvailable",
      "numberUnavailable",
      "collisionCount",
    ]),
    ...collisionCountDecremented(status, statusOf(old)),
  ];
}

/** ValidateHorizontalPodAutoscalerStatusUpdate (autoscaling): the two replica counters. */
export function validateHorizontalPodAutoscalerStatusUpdate(obj: KubeObject): FieldError[] {
  return nonNegativeCounters(statusOf(obj), ["currentReplicas", "desiredReplicas"]);
}

/** ValidatePodDisruptionBudgetStatusUpdate for policy/v1 (the only version 1.26 serves): conditions, then four counters. */
export function validatePodDisruptionBudgetStatusUpdate(obj: KubeObject): FieldError[] {
  const status = statusOf(obj);
  return [
    ...validateConditions(status.conditions, "status.conditions"),
    ...nonNegativeCounters(status, ["disruptionsAllowed", "currentHealthy", "desiredHealthy", "expectedPods"]),
  ];
}

/** validateJobStatus's uncountedTerminatedPods: UIDs non-empty and unique across succeeded and failed together. */
function uncountedPodErrors(uncounted: Status): FieldError[] {
  const seen = new Set<unknown>();
  return (["succeeded", "failed"] as const).flatMap((group) =>
    list(uncounted[group]).flatMap((uid, i) => {
      const path = `status.uncountedTerminatedPods.${group}[${i}]`;
      if (uid === "" || !isSet(uid)) return [invalid(path, uid ?? "", "must not be empty")];
      if (seen.has(uid)) return [duplicate(path, uid)];
      seen.add(uid);
      return [];
    })
  );
}

/** ValidateJobUpdateStatus → ValidateJobStatusUpdate → validateJobStatus (1.26: no `terminating` yet). */
export function validateJobStatusUpdate(obj: KubeObject): FieldError[] {
  const status = statusOf(obj);
  return [
    ...nonNegativeCounters(status, ["active", "succeeded", "failed", "ready"]),
    ...uncountedPodErrors(record(status.uncountedTerminatedPods)),
  ];
}
