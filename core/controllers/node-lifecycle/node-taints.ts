/**
 * The taints kube's node lifecycle controller keeps on a node: NoSchedule taints mirroring its conditions and
 * spec.unschedulable (doNoScheduleTaintingPass), and the NoExecute not-ready/unreachable taint of taint-based
 * eviction (processTaintBaseEviction). Taints it adds carry timeAdded (SwapNodeControllerTaint).
 */
import type { KubeObject } from "../../api/types.ts";
import { conditionsOf } from "./node-health.ts";

export interface Taint {
  key: string;
  value?: string;
  effect: string;
  timeAdded?: string;
}

export const NOT_READY_TAINT = "node.kubernetes.io/not-ready";
export const UNREACHABLE_TAINT = "node.kubernetes.io/unreachable";
const UNSCHEDULABLE_TAINT = "node.kubernetes.io/unschedulable";

/** kube's nodeConditionToTaintKeyStatusMap. */
const CONDITION_TAINTS: Record<string, Record<string, string>> = {
  Ready: { False: NOT_READY_TAINT, Unknown: UNREACHABLE_TAINT },
  MemoryPressure: { True: "node.kubernetes.io/memory-pressure" },
  DiskPressure: { True: "node.kubernetes.io/disk-pressure" },
  NetworkUnavailable: { True: "node.kubernetes.io/network-unavailable" },
  PIDPressure: { True: "node.kubernetes.io/pid-pressure" },
};
const CONDITION_TAINT_KEYS = new Set([
  ...Object.values(CONDITION_TAINTS).flatMap((byStatus) => Object.values(byStatus)),
  UNSCHEDULABLE_TAINT,
]);

export function taintsOf(node: KubeObject): Taint[] {
  return (node.spec as { taints?: Taint[] } | undefined)?.taints ?? [];
}

function sameTaint(a: Taint, b: Taint): boolean {
  return a.key === b.key && a.effect === b.effect;
}

/** The NoSchedule taints the node's conditions and unschedulable flag call for. */
function wantedNoSchedule(node: KubeObject): Taint[] {
  const keys = conditionsOf(node).flatMap((c) => CONDITION_TAINTS[c.type]?.[c.status] ?? []);
  if ((node.spec as { unschedulable?: boolean } | undefined)?.unschedulable) keys.push(UNSCHEDULABLE_TAINT);
  return keys.map((key) => ({ key, effect: "NoSchedule" }));
}

/** The NoExecute taint for the node's Ready status: not-ready for False, unreachable for Unknown, none for True. */
function wantedNoExecute(readyStatus: string | undefined): Taint[] {
  if (readyStatus === "False") return [{ key: NOT_READY_TAINT, effect: "NoExecute" }];
  if (readyStatus === "Unknown") return [{ key: UNREACHABLE_TAINT, effect: "NoExecute" }];
  return [];
}

/**
 * The node's taints after the controller's passes, or undefined when they stay as they are. `noExecute` is whether
 * eviction tainting may add taints now (zone disruption stops it); it removes them from reachable nodes regardless.
 */
export function controllerTaints(node: KubeObject, options: { noExecute: "taint" | "hold" | "clear"; now: string }): Taint[] | undefined {
  const current = taintsOf(node);
  const readyStatus = conditionsOf(node).find((c) => c.type === "Ready")?.status;
  const managedNoSchedule = (t: Taint) => t.effect === "NoSchedule" && CONDITION_TAINT_KEYS.has(t.key);
  const managedNoExecute = (t: Taint) => t.effect === "NoExecute" && (t.key === NOT_READY_TAINT || t.key === UNREACHABLE_TAINT);
  const wanted = wantedNoSchedule(node);
  if (options.noExecute === "taint") wanted.push(...wantedNoExecute(readyStatus));
  // Held: a reachable node still loses its NoExecute taint (markNodeAsReachable), an unreachable one keeps what it has.
  const keepsNoExecute = options.noExecute === "hold" && readyStatus !== "True";
  const kept = current.filter((t) => {
    if (managedNoSchedule(t) || (managedNoExecute(t) && !keepsNoExecute)) return wanted.some((w) => sameTaint(w, t));
    return true;
  });
  const added = wanted.filter((w) => !kept.some((t) => sameTaint(w, t))).map((w) => ({ ...w, timeAdded: options.now }));
  if (added.length === 0 && kept.length === current.length) return undefined;
  return [...kept, ...added];
}
