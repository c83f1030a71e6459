/** Pod facts the workload controllers count by (kube's podutil and controller.FilterActivePods). */
import type { KubeObject } from "../../api/types.ts";
import { compareByteOrder } from "../../api/byte-order.ts";

interface PodCondition {
  type: string;
  status: string;
  lastTransitionTime?: string;
}

interface PodStatus {
  phase?: string;
  conditions?: PodCondition[];
}

export function podPhase(pod: KubeObject): string {
  return (pod.status as PodStatus | undefined)?.phase ?? "";
}

/** Not finished and not being deleted. */
export function isPodActive(pod: KubeObject): boolean {
  const phase = podPhase(pod);
  return phase !== "Succeeded" && phase !== "Failed" && !pod.metadata.deletionTimestamp;
}

function readyCondition(pod: KubeObject): PodCondition | undefined {
  return (pod.status as PodStatus | undefined)?.conditions?.find((c) => c.type === "Ready");
}

export function isPodReady(pod: KubeObject): boolean {
  return readyCondition(pod)?.status === "True";
}

/** Ready for at least minReadySeconds at `now`. */
export function isPodAvailable(pod: KubeObject, minReadySeconds: number, now: number): boolean {
  const ready = readyCondition(pod);
  if (ready?.status !== "True") return false;
  if (minReadySeconds <= 0) return true;
  const since = ready.lastTransitionTime ? Date.parse(ready.lastTransitionTime) : now;
  return since + minReadySeconds * 1000 <= now;
}

/**
 * Order in which surplus pods go first (kube's ActivePods sort): unscheduled before scheduled, pending before
 * running, not ready before ready, then the newest first.
 */
export function deletionOrder(a: KubeObject, b: KubeObject): number {
  const scheduled = (p: KubeObject) => ((p.spec as { nodeName?: string } | undefined)?.nodeName ? 1 : 0);
  const phaseRank = (p: KubeObject) => ({ Pending: 0, Unknown: 1, Running: 2 } as Record<string, number>)[podPhase(p)] ?? 0;
  const ready = (p: KubeObject) => (isPodReady(p) ? 1 : 0);
  return scheduled(a) - scheduled(b) || phaseRank(a) - phaseRank(b) || ready(a) - ready(b) ||
    compareByteOrder(String(b.metadata.creationTimestamp), String(a.metadata.creationTimestamp));
}
