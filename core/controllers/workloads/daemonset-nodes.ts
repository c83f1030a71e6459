/**
 * Which nodes a DaemonSet runs on (kube 1.26's NodeShouldRunDaemonPod): the template's nodeName, nodeSelector
 * and required node affinity must match, and the node's taints must be tolerated, counting the tolerations
 * every daemon pod gets (util.AddOrUpdateDaemonPodTolerations).
 */
import type { KubeObject } from "../../api/types.ts";
import { type Taint, tolerates, type Toleration } from "../scheduler/fit.ts";
import { matchesNodeAffinity } from "../scheduler/node-affinity.ts";
import { templateOf } from "./controller-revision.ts";

export interface DaemonPodSpec {
  nodeName?: string;
  hostNetwork?: boolean;
  tolerations?: Toleration[];
}

const exists = (key: string, effect: string): Toleration => ({ key, operator: "Exists", effect });

/** Daemon pods survive node problems and scheduling-condition taints. */
const DAEMON_TOLERATIONS: Toleration[] = [
  exists("node.kubernetes.io/not-ready", "NoExecute"),
  exists("node.kubernetes.io/unreachable", "NoExecute"),
  exists("node.kubernetes.io/disk-pressure", "NoSchedule"),
  exists("node.kubernetes.io/memory-pressure", "NoSchedule"),
  exists("node.kubernetes.io/pid-pressure", "NoSchedule"),
  exists("node.kubernetes.io/unschedulable", "NoSchedule"),
];
const HOST_NETWORK_TOLERATION = exists("node.kubernetes.io/network-unavailable", "NoSchedule");

const sameToleration = (a: Toleration, b: Toleration) =>
  a.key === b.key && a.effect === b.effect && (a.operator ?? "Equal") === (b.operator ?? "Equal") && (a.value ?? "") === (b.value ?? "");

/** The pod spec's tolerations with the daemon ones added (an equal one is not repeated). */
export function withDaemonTolerations(spec: DaemonPodSpec): Toleration[] {
  const tolerations = [...(spec.tolerations ?? [])];
  const wanted = spec.hostNetwork ? [...DAEMON_TOLERATIONS, HOST_NETWORK_TOLERATION] : DAEMON_TOLERATIONS;
  for (const toleration of wanted) {
    if (!tolerations.some((t) => sameToleration(t, toleration))) tolerations.push(toleration);
  }
  return tolerations;
}

export interface NodeVerdict {
  /** A daemon pod should be created here. */
  shouldRun: boolean;
  /** A daemon pod already here may stay (it tolerates the node's NoExecute taints). */
  shouldContinueRunning: boolean;
}

export function nodeShouldRunDaemonPod(ds: KubeObject, node: KubeObject): NodeVerdict {
  const spec = (templateOf(ds).spec ?? {}) as DaemonPodSpec;
  const nodeName = String(node.metadata.name);
  const no = { shouldRun: false, shouldContinueRunning: false };
  if (spec.nodeName && spec.nodeName !== nodeName) return no;
  if (!matchesNodeAffinity({ metadata: {}, spec }, node)) return no;
  const tolerations = withDaemonTolerations(spec);
  const taints = ((node.spec as { taints?: Taint[] } | undefined)?.taints) ?? [];
  const untolerated = (effects: string[]) =>
    taints.some((taint) => effects.includes(taint.effect) && !tolerations.some((t) => tolerates(t, taint)));
  if (!untolerated(["NoSchedule", "NoExecute"])) return { shouldRun: true, shouldContinueRunning: true };
  return { shouldRun: false, shouldContinueRunning: !untolerated(["NoExecute"]) };
}
