/** A DaemonSet's status from the nodes and the oldest daemon pod on each (kube's updateDaemonSetStatus). */
import type { KubeObject } from "../../api/types.ts";
import { nodeShouldRunDaemonPod } from "./daemonset-nodes.ts";
import { daemonSetSpec, type DaemonView } from "./daemonset-plan.ts";
import { isDaemonPodUpdated, oldestScheduledFirst } from "./daemonset-pods.ts";
import { isPodAvailable, isPodReady } from "./pod-state.ts";

export interface DaemonSetStatus {
  currentNumberScheduled: number;
  numberMisscheduled: number;
  desiredNumberScheduled: number;
  numberReady: number;
  observedGeneration?: number;
  updatedNumberScheduled: number;
  numberAvailable: number;
  numberUnavailable: number;
  collisionCount?: number;
  conditions?: unknown[];
}

/** Written even when zero, as kube's DaemonSetStatus does. */
export const DAEMON_SET_STATUS_ALWAYS_WRITTEN = ["currentNumberScheduled", "numberMisscheduled", "desiredNumberScheduled", "numberReady"];

export function daemonSetStatus(ds: KubeObject, view: DaemonView): DaemonSetStatus {
  const previous = (ds.status ?? {}) as Partial<DaemonSetStatus>;
  const minReadySeconds = daemonSetSpec(ds).minReadySeconds ?? 0;
  const status: DaemonSetStatus = {
    currentNumberScheduled: 0,
    numberMisscheduled: 0,
    desiredNumberScheduled: 0,
    numberReady: 0,
    observedGeneration: ds.metadata.generation,
    updatedNumberScheduled: 0,
    numberAvailable: 0,
    numberUnavailable: 0,
    collisionCount: previous.collisionCount,
  };
  for (const node of view.nodes) {
    const pods = view.podsByNode.get(String(node.metadata.name)) ?? [];
    if (!nodeShouldRunDaemonPod(ds, node).shouldRun) {
      if (pods.length > 0) status.numberMisscheduled++;
      continue;
    }
    status.desiredNumberScheduled++;
    if (pods.length === 0) continue;
    status.currentNumberScheduled++;
    const pod = [...pods].sort(oldestScheduledFirst)[0];
    if (isPodReady(pod)) {
      status.numberReady++;
      if (isPodAvailable(pod, minReadySeconds, view.now)) status.numberAvailable++;
    }
    if (isDaemonPodUpdated(ds, pod, view.hash)) status.updatedNumberScheduled++;
  }
  status.numberUnavailable = status.desiredNumberScheduled - status.numberAvailable;
  if (previous.conditions?.length) status.conditions = previous.conditions;
  return status;
}
