/**
 * kube's NoExecuteTaintManager (pkg/controller/nodelifecycle/scheduler): a pod on a node with NoExecute taints is
 * deleted at once when it does not tolerate them all, after the shortest tolerationSeconds of the tolerations used
 * when it does, and never when those tolerate forever. Time counts from the newest of those taints' timeAdded.
 */
import type { KubeObject } from "../../api/types.ts";
import { tolerates, type Toleration } from "../scheduler/fit.ts";
import type { Taint } from "./node-taints.ts";

type TimedToleration = Toleration & { tolerationSeconds?: number | null };

/** When the pod is due for eviction (ms since the epoch), or undefined when it may stay. */
export function evictionDue(pod: KubeObject, nodeTaints: Taint[], now: number): number | undefined {
  const taints = nodeTaints.filter((t) => t.effect === "NoExecute");
  if (taints.length === 0) return undefined;
  const tolerations = ((pod.spec as { tolerations?: TimedToleration[] } | undefined)?.tolerations) ?? [];
  const used: TimedToleration[] = [];
  // kube's GetMatchingTolerations: the first toleration of each taint counts.
  for (const taint of taints) {
    const matching = tolerations.find((t) => tolerates(t, taint));
    if (!matching) return now;
    used.push(matching);
  }
  // kube's getMinTolerationTime: no seconds means forever; zero or less means at once.
  const seconds = used.map((t) => t.tolerationSeconds).filter((s): s is number => typeof s === "number");
  if (seconds.length === 0) return undefined;
  const since = Math.max(...taints.map((t) => Date.parse(t.timeAdded ?? "") || now));
  return since + Math.max(0, Math.min(...seconds)) * 1000;
}

/** kube's DisruptionTarget condition, set before the taint manager deletes a pod (PodDisruptionConditions, on in 1.26). */
export function disruptionCondition(now: string): Record<string, unknown> {
  return {
    type: "DisruptionTarget",
    status: "True",
    lastProbeTime: null,
    lastTransitionTime: now,
    reason: "DeletionByTaintManager",
    message: "Taint manager: deleting due to NoExecute taint",
  };
}
