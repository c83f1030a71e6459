/**
 * What a Job needs done (kube 1.26's JobController.syncJob for NonIndexed jobs): pods to start or stop, and
 * the status: active/ready/succeeded/failed counts, startTime, completionTime and the Complete, Failed or
 * Suspended condition.
 */
import type { KubeObject } from "../../api/types.ts";
import { nowTimestamp } from "../../registry/object-meta.ts";
import { type Condition, findCondition, setCondition } from "./conditions.ts";
import { deletionOrder, isPodActive, isPodReady, podPhase } from "./pod-state.ts";

interface JobSpec {
  parallelism?: number;
  completions?: number | null;
  backoffLimit?: number;
  /** int64: a BigInt beyond 2^53 (api/exact-integers.ts). */
  activeDeadlineSeconds?: number | bigint;
  suspend?: boolean;
}

export interface JobStatus {
  active?: number;
  ready?: number;
  succeeded?: number;
  failed?: number;
  startTime?: string;
  completionTime?: string;
  conditions?: Condition[];
}

export interface JobPlan {
  create: number;
  remove: KubeObject[];
  status: JobStatus;
}

export function isJobFinished(job: KubeObject): boolean {
  const conditions = (job.status as JobStatus | undefined)?.conditions;
  return ["Complete", "Failed"].some((type) => findCondition(conditions, type)?.status === "True");
}

function withCondition(status: JobStatus, type: string, reason: string, message: string): Condition[] {
  const conditions = setCondition(status.conditions, { type, status: "True", reason, message });
  return conditions.map((c) => (c.type === type && !c.lastProbeTime ? { ...c, lastProbeTime: c.lastTransitionTime } : c));
}

export function planJob(job: KubeObject, owned: KubeObject[], now: number): JobPlan {
  const spec = (job.spec ?? {}) as JobSpec;
  const previous = (job.status ?? {}) as JobStatus;
  const active = owned.filter(isPodActive);
  const succeeded = owned.filter((p) => podPhase(p) === "Succeeded").length;
  const failed = owned.filter((p) => podPhase(p) === "Failed").length;
  const status: JobStatus = { ...previous, active: active.length, ready: active.filter(isPodReady).length, succeeded, failed };
  if (isJobFinished(job)) return { create: 0, remove: active, status: { ...status, active: 0 } };
  if (!status.startTime && !spec.suspend) status.startTime = nowTimestamp();
  const stopAll = (type: string, reason: string, message: string): JobPlan => {
    status.conditions = withCondition(status, type, reason, message);
    if (type === "Complete") status.completionTime = nowTimestamp();
    return { create: 0, remove: active, status };
  };
  if (failed > (spec.backoffLimit ?? 6)) return stopAll("Failed", "BackoffLimitExceeded", "Job has reached the specified backoff limit");
  const started = Date.parse(status.startTime ?? "");
  if (spec.activeDeadlineSeconds !== undefined && started + Number(spec.activeDeadlineSeconds) * 1000 <= now) {
    return stopAll("Failed", "DeadlineExceeded", "Job was active longer than specified deadline");
  }
  const completions = spec.completions ?? null;
  const complete = completions === null ? succeeded > 0 && active.length === 0 : succeeded >= completions;
  if (complete) return stopAll("Complete", "", "");
  if (spec.suspend) {
    status.conditions = setCondition(status.conditions, {
      type: "Suspended",
      status: "True",
      reason: "JobSuspended",
      message: "Job suspended",
    });
    return { create: 0, remove: active, status };
  }
  if (findCondition(status.conditions, "Suspended")?.status === "True") {
    status.conditions = setCondition(status.conditions, {
      type: "Suspended",
      status: "False",
      reason: "JobResumed",
      message: "Job resumed",
    });
  }
  const parallelism = spec.parallelism ?? 1;
  const wanted = completions === null ? (succeeded > 0 ? 0 : parallelism) : Math.min(parallelism, completions - succeeded);
  const diff = active.length - wanted;
  return { create: Math.max(-diff, 0), remove: diff > 0 ? [...active].sort(deletionOrder).slice(0, diff) : [], status };
}
