/**
 * What a DaemonSet needs done (kube 1.26's DaemonSetsController.manage and rollingUpdate), as pure functions
 * of the nodes and the daemon pods on each: a pod where one should run and none is, no pod where none may
 * stay, failed pods replaced, and a rolling update bounded by maxUnavailable or, with maxSurge, by surge pods.
 */
import type { KubeObject } from "../../api/types.ts";
import { nodeShouldRunDaemonPod } from "./daemonset-nodes.ts";
import { isDaemonPodUpdated, oldestScheduledFirst, targetNodeOf } from "./daemonset-pods.ts";
import { scaledValue } from "./int-or-percent.ts";
import { isPodAvailable, isPodReady, podPhase } from "./pod-state.ts";

export interface DaemonView {
  /** Every node, by name. */
  nodes: KubeObject[];
  /** The daemon pods (terminating ones included) by the node they are on or pinned to. */
  podsByNode: Map<string, KubeObject[]>;
  hash: string;
  now: number;
}

export interface DaemonSetPlan {
  createOn: string[];
  remove: KubeObject[];
}

interface DaemonSetSpec {
  minReadySeconds?: number;
  updateStrategy?: { type?: string; rollingUpdate?: { maxUnavailable?: unknown; maxSurge?: unknown } };
}

const isDeleting = (pod: KubeObject) => pod.metadata.deletionTimestamp !== undefined;

export function podsByTargetNode(pods: KubeObject[]): Map<string, KubeObject[]> {
  const byNode = new Map<string, KubeObject[]>();
  for (const pod of pods) {
    const node = targetNodeOf(pod) ?? "";
    byNode.set(node, [...(byNode.get(node) ?? []), pod]);
  }
  return byNode;
}

export function daemonSetSpec(ds: KubeObject): DaemonSetSpec {
  return (ds.spec ?? {}) as DaemonSetSpec;
}

function allowsSurge(ds: KubeObject, desired: number): boolean {
  const rolling = daemonSetSpec(ds).updateStrategy;
  return rolling?.type === "RollingUpdate" && scaledValue(rolling.rollingUpdate?.maxSurge ?? 0, desired, true) > 0;
}

export function desiredNodes(ds: KubeObject, nodes: KubeObject[]): KubeObject[] {
  return nodes.filter((node) => nodeShouldRunDaemonPod(ds, node).shouldRun);
}

/** kube's manage: creations and deletions that bring each node to one daemon pod (two while surging). */
export function planDaemonPods(ds: KubeObject, view: DaemonView): DaemonSetPlan {
  const plan: DaemonSetPlan = { createOn: [], remove: [] };
  const surge = allowsSurge(ds, desiredNodes(ds, view.nodes).length);
  const names = new Set(view.nodes.map((node) => String(node.metadata.name)));
  for (const node of view.nodes) {
    const name = String(node.metadata.name);
    const pods = view.podsByNode.get(name) ?? [];
    const verdict = nodeShouldRunDaemonPod(ds, node);
    if (verdict.shouldRun && pods.length === 0) {
      plan.createOn.push(name);
    } else if (verdict.shouldContinueRunning) {
      const running = pods.filter((pod) => !isDeleting(pod) && podPhase(pod) !== "Failed").sort(oldestScheduledFirst);
      plan.remove.push(...pods.filter((pod) => !isDeleting(pod) && podPhase(pod) === "Failed"));
      plan.remove.push(...(surge ? surplusWhileSurging(ds, running, view) : running.slice(1)));
    } else {
      plan.remove.push(...pods.filter((pod) => !isDeleting(pod)));
    }
  }
  // Pods pinned to nodes that no longer exist and never scheduled.
  for (const [node, pods] of view.podsByNode) {
    if (names.has(node)) continue;
    plan.remove.push(...pods.filter((pod) => !isDeleting(pod) && !(pod.spec as { nodeName?: string } | undefined)?.nodeName));
  }
  return plan;
}

/** While surging a node keeps its oldest new pod, and its oldest old pod only until the new one is available. */
function surplusWhileSurging(ds: KubeObject, running: KubeObject[], view: DaemonView): KubeObject[] {
  const surplus: KubeObject[] = [];
  let oldestNew: KubeObject | undefined;
  let oldestOld: KubeObject | undefined;
  for (const pod of running) {
    if (isDaemonPodUpdated(ds, pod, view.hash) && !oldestNew) oldestNew = pod;
    else if (!isDaemonPodUpdated(ds, pod, view.hash) && !oldestOld) oldestOld = pod;
    else surplus.push(pod);
  }
  if (oldestNew && oldestOld && (!isPodReady(oldestOld) || isPodAvailable(oldestNew, daemonSetSpec(ds).minReadySeconds ?? 0, view.now))) {
    surplus.push(oldestOld);
  }
  return surplus;
}

/** The node's one updated and one old live pod; undefined when it has two of either kind. */
function updatedAndOld(ds: KubeObject, pods: KubeObject[], hash: string): { updated?: KubeObject; old?: KubeObject } | undefined {
  const live = pods.filter((pod) => !isDeleting(pod));
  const updated = live.filter((pod) => isDaemonPodUpdated(ds, pod, hash));
  const old = live.filter((pod) => !isDaemonPodUpdated(ds, pod, hash));
  return updated.length > 1 || old.length > 1 ? undefined : { updated: updated[0], old: old[0] };
}

/** kube's rollingUpdate: old pods to delete and, with maxSurge, nodes to start a new pod on beside the old one. */
export function planRollingUpdate(ds: KubeObject, view: DaemonView): DaemonSetPlan {
  const desired = desiredNodes(ds, view.nodes).length;
  const rolling = daemonSetSpec(ds).updateStrategy?.rollingUpdate ?? {};
  const maxSurge = scaledValue(rolling.maxSurge ?? 0, desired, true);
  let maxUnavailable = scaledValue(rolling.maxUnavailable ?? 1, desired, true);
  if (desired > 0 && maxSurge === 0 && maxUnavailable === 0) maxUnavailable = 1;
  const available = (pod: KubeObject) => isPodAvailable(pod, daemonSetSpec(ds).minReadySeconds ?? 0, view.now);
  const nodesWithPods = [...view.podsByNode.keys()].sort();
  let busy = 0;
  const replaceNow: string[] = [];
  const candidates: string[] = [];
  const remove: KubeObject[] = [];
  for (const node of nodesWithPods) {
    const pair = updatedAndOld(ds, view.podsByNode.get(node)!, view.hash);
    if (!pair) {
      busy++;
      continue;
    }
    const { updated, old } = pair;
    if (maxSurge === 0) {
      if (!old || updated) {
        if (!updated || old || !available(updated)) busy++;
      } else if (!available(old)) replaceNow.push(node);
      else if (busy < maxUnavailable) candidates.push(node);
    } else if (old && !updated) {
      if (!available(old)) replaceNow.push(node);
      else if (busy < maxSurge) candidates.push(node);
    } else if (old && updated) {
      if (available(updated)) remove.push(old);
      else busy++;
    }
  }
  const room = Math.min(Math.max((maxSurge === 0 ? maxUnavailable : maxSurge) - busy, 0), candidates.length);
  const chosen = [...replaceNow, ...candidates.slice(0, room)];
  if (maxSurge > 0) return { createOn: chosen, remove };
  return { createOn: [], remove: chosen.map((node) => updatedAndOld(ds, view.podsByNode.get(node)!, view.hash)!.old!) };
}
