/** A Deployment's status from its ReplicaSets, with the Available and Progressing conditions kube reports. */
import type { KubeObject } from "../../api/types.ts";
import { type Condition, findCondition, setCondition } from "./conditions.ts";
import { availableReplicas, deploymentSpec, desiredReplicas, fenceposts } from "./deployment-rollout.ts";

export interface DeploymentStatus {
  observedGeneration?: number;
  replicas?: number;
  updatedReplicas?: number;
  readyReplicas?: number;
  availableReplicas?: number;
  unavailableReplicas?: number;
  conditions?: Condition[];
  collisionCount?: number;
}

const count = (rs: KubeObject | undefined, field: string) => ((rs?.status as Record<string, number> | undefined)?.[field] ?? 0);

export function deploymentStatus(
  d: KubeObject,
  newRS: KubeObject | undefined,
  all: KubeObject[],
  event: { createdNewRS: boolean; now: number },
): DeploymentStatus {
  const previous = (d.status ?? {}) as DeploymentStatus;
  const available = all.reduce((n, rs) => n + availableReplicas(rs), 0);
  const status: DeploymentStatus = {
    observedGeneration: d.metadata.generation,
    replicas: all.reduce((n, rs) => n + count(rs, "replicas"), 0),
    updatedReplicas: count(newRS, "replicas"),
    readyReplicas: all.reduce((n, rs) => n + count(rs, "readyReplicas"), 0),
    availableReplicas: available,
    unavailableReplicas: Math.max(desiredReplicas(d) - available, 0),
    collisionCount: previous.collisionCount,
  };
  const wantedAvailable = desiredReplicas(d) - fenceposts(d).maxUnavailable;
  let conditions = setCondition(
    previous.conditions,
    available >= wantedAvailable
      ? { type: "Available", status: "True", reason: "MinimumReplicasAvailable", message: "Deployment has minimum availability." }
      : {
        type: "Available",
        status: "False",
        reason: "MinimumReplicasUnavailable",
        message: "Deployment does not have minimum availability.",
      },
    { withUpdateTime: true },
  );
  const progressing = progressingCondition(d, newRS, status, previous, event);
  if (progressing) conditions = setCondition(conditions, progressing, { withUpdateTime: true });
  status.conditions = withReplicaFailure(conditions, replicaFailure(newRS, all));
  return status;
}

/**
 * kube's getReplicaFailures: the ReplicaFailure condition of the new ReplicaSet, else of any other, as a Deployment
 * condition (ReplicaSetToDeploymentCondition: lastUpdateTime is the set's lastTransitionTime).
 */
function replicaFailure(newRS: KubeObject | undefined, all: KubeObject[]): Condition | undefined {
  const failureOf = (rs: KubeObject | undefined) =>
    findCondition((rs?.status as { conditions?: Condition[] } | undefined)?.conditions, "ReplicaFailure");
  const found = failureOf(newRS) ?? all.map(failureOf).find((c) => c !== undefined);
  return found &&
    {
      type: found.type,
      status: found.status,
      lastUpdateTime: found.lastTransitionTime,
      lastTransitionTime: found.lastTransitionTime,
      reason: found.reason,
      message: found.message,
    };
}

/** syncRolloutStatus: set (kube's SetDeploymentCondition, unchanged when status and reason are) or remove ReplicaFailure. */
function withReplicaFailure(conditions: Condition[], failure: Condition | undefined): Condition[] {
  const current = findCondition(conditions, "ReplicaFailure");
  if (!failure) return conditions.filter((c) => c.type !== "ReplicaFailure");
  if (current && current.status === failure.status && current.reason === failure.reason) return conditions;
  const next = current?.status === failure.status ? { ...failure, lastTransitionTime: current.lastTransitionTime } : failure;
  return [...conditions.filter((c) => c.type !== "ReplicaFailure"), next];
}

/** kube's TimedOutReason. */
const TIMED_OUT = "ProgressDeadlineExceeded";
/** checkPausedConditions' conditions (PausedDeployReason, ResumedDeployReason). */
const PAUSED = { type: "Progressing", status: "Unknown", reason: "DeploymentPaused", message: "Deployment is paused" };
const RESUMED = { type: "Progressing", status: "Unknown", reason: "DeploymentResumed", message: "Deployment is resumed" };

function progressingCondition(
  d: KubeObject,
  newRS: KubeObject | undefined,
  status: DeploymentStatus,
  previous: DeploymentStatus,
  event: { createdNewRS: boolean; now: number },
): Omit<Condition, "lastTransitionTime" | "lastUpdateTime"> | undefined {
  const current = findCondition(previous.conditions, "Progressing");
  const { paused, progressDeadlineSeconds: deadline } = deploymentSpec(d);
  // HasProgressDeadline: math.MaxInt32 means no deadline.
  const hasDeadline = deadline !== undefined && deadline < 2147483647;
  // checkPausedConditions: a paused Deployment's progress is Unknown (so it never times out), unless it already has.
  if (paused) return hasDeadline && current?.reason !== TIMED_OUT ? PAUSED : undefined;
  const resumed = hasDeadline && current?.reason === PAUSED.reason;
  if (!newRS) return resumed ? RESUMED : undefined;
  const name = String(newRS.metadata.name);
  const replicas = desiredReplicas(d);
  if (status.updatedReplicas === replicas && status.replicas === replicas && status.availableReplicas === replicas) {
    return {
      type: "Progressing",
      status: "True",
      reason: "NewReplicaSetAvailable",
      message: `ReplicaSet "${name}" has successfully progressed.`,
    };
  }
  if (event.createdNewRS) {
    return { type: "Progressing", status: "True", reason: "NewReplicaSetCreated", message: `Created new replica set "${name}"` };
  }
  const moved = (status.updatedReplicas ?? 0) > (previous.updatedReplicas ?? 0) ||
    (status.readyReplicas ?? 0) > (previous.readyReplicas ?? 0) ||
    (status.availableReplicas ?? 0) > (previous.availableReplicas ?? 0) ||
    (status.replicas ?? 0) - (status.updatedReplicas ?? 0) < (previous.replicas ?? 0) - (previous.updatedReplicas ?? 0);
  if (moved || current?.reason === "NewReplicaSetAvailable") {
    return { type: "Progressing", status: "True", reason: "ReplicaSetUpdated", message: `ReplicaSet "${name}" is progressing.` };
  }
  // The resume restarts the deadline's clock: DeploymentTimedOut reads the condition's lastUpdateTime.
  if (resumed) return RESUMED;
  if (!current) return { type: "Progressing", status: "True", reason: "FoundNewReplicaSet", message: `Found new replica set "${name}"` };
  const since = Date.parse(current.lastUpdateTime ?? current.lastTransitionTime ?? "");
  if (hasDeadline && since + deadline * 1000 < event.now) {
    return {
      type: "Progressing",
      status: "False",
      reason: TIMED_OUT,
      message: `ReplicaSet "${name}" has timed out progressing.`,
    };
  }
  return undefined;
}
