/**
 * The default scheduler: binds each pending pod (no nodeName, schedulerName default-scheduler) to the fitting
 * node with the lowest share of its cpu and memory requested, through the pods/binding write; a pod that fits
 * nowhere gets PodScheduled False, reason Unschedulable, with kube's message. It records kube-scheduler's Events
 * (through the events.k8s.io recorder, reportingController default-scheduler): Normal Scheduled "Successfully
 * assigned <ns>/<pod> to <node>" with action Binding (schedule_one.go bind), and Warning FailedScheduling with the
 * unschedulable message and action Scheduling on every failed attempt (handleSchedulingFailure).
 */
import { isConflict, isNotFound } from "../../api/errors.ts";
import type { KubeObject } from "../../api/types.ts";
import { milliValue, type Quantity, quantityOrZero } from "../../api/quantity.ts";
import { collectionPrefix } from "../../registry/keys.ts";
import { type ControllerClient, NODES, PODS } from "../workloads/mod.ts";
import { setCondition } from "../workloads/mod.ts";
import { type ControlLoop, startLoop } from "../workloads/mod.ts";
import { podPhase } from "../workloads/mod.ts";
import { bindPod } from "./binding.ts";
import { misfitReasons, podRequests, unschedulableMessage } from "./fit.ts";
import { compareByteOrder } from "../../api/byte-order.ts";

const RESYNC_MS = 5000;
export const DEFAULT_SCHEDULER = "default-scheduler";

export function startScheduler(client: ControllerClient): ControlLoop {
  const pods = client.store(PODS);
  const pass = async () => {
    const nodes = await client.list(NODES);
    const all = await client.list(PODS);
    const placed = new Map<string, KubeObject[]>(nodes.map((n) => [String(n.metadata.name), []]));
    for (const pod of all) {
      const node = nodeNameOf(pod);
      if (node && podPhase(pod) !== "Succeeded" && podPhase(pod) !== "Failed") placed.get(node)?.push(pod);
    }
    const pending = all.filter(isPending).sort((a, b) =>
      compareByteOrder(String(a.metadata.creationTimestamp), String(b.metadata.creationTimestamp))
    );
    for (const pod of pending) await schedule(client, pod, nodes, placed);
  };
  return startLoop(pods.changes, pass, {
    name: "scheduler",
    prefixes: [collectionPrefix(pods.type, ""), collectionPrefix(client.store(NODES).type, "")],
    resyncMs: RESYNC_MS,
  });
}

function nodeNameOf(pod: KubeObject): string {
  return (pod.spec as { nodeName?: string } | undefined)?.nodeName ?? "";
}

function isPending(pod: KubeObject): boolean {
  const schedulerName = (pod.spec as { schedulerName?: string } | undefined)?.schedulerName ?? DEFAULT_SCHEDULER;
  return !nodeNameOf(pod) && schedulerName === DEFAULT_SCHEDULER && !pod.metadata.deletionTimestamp && podPhase(pod) !== "Succeeded" &&
    podPhase(pod) !== "Failed";
}

async function schedule(client: ControllerClient, pod: KubeObject, nodes: KubeObject[], placed: Map<string, KubeObject[]>): Promise<void> {
  const reasons = nodes.map((node) => misfitReasons(pod, node, placed.get(String(node.metadata.name)) ?? []));
  const fitting = nodes.filter((_, i) => reasons[i].length === 0);
  if (fitting.length === 0) return await markUnschedulable(client, pod, unschedulableMessage(reasons));
  const best = fitting.map((node) => ({ node, score: requestedShare(pod, node, placed.get(String(node.metadata.name))!) }))
    .sort((a, b) => a.score - b.score || compareByteOrder(String(a.node.metadata.name), String(b.node.metadata.name)))[0].node;
  try {
    await bindPod(client.store(PODS), {
      namespace: String(pod.metadata.namespace),
      name: String(pod.metadata.name),
      node: String(best.metadata.name),
    });
    placed.get(String(best.metadata.name))!.push(pod);
    const message = `Successfully assigned ${pod.metadata.namespace}/${pod.metadata.name} to ${best.metadata.name}`;
    client.recordEvent(pod, { type: "Normal", reason: "Scheduled", message, component: DEFAULT_SCHEDULER, action: "Binding" });
  } catch (e) {
    if (!isConflict(e) && !isNotFound(e)) throw e;
  }
}

/** The mean share of cpu, memory and pod slots taken once the pod is on the node (kube's LeastAllocated). */
function requestedShare(pod: KubeObject, node: KubeObject, onNode: KubeObject[]): number {
  const allocatable = ((node.status as { allocatable?: Record<string, unknown> } | undefined)?.allocatable) ?? {};
  const wanted = podRequests(pod);
  const used = onNode.map(podRequests);
  // kube's scorers work in milli-units.
  const milli = (requests: Record<string, Quantity>, name: string) => milliValue(quantityOrZero(requests[name]));
  const share = (name: string) =>
    (milli(wanted, name) + used.reduce((n, r) => n + milli(r, name), 0)) / (milliValue(quantityOrZero(allocatable[name])) || 1);
  const podShare = (1 + used.length) / (milliValue(quantityOrZero(allocatable.pods)) / 1000 || 1);
  return (share("cpu") + share("memory") + podShare) / 3;
}

async function markUnschedulable(client: ControllerClient, pod: KubeObject, message: string): Promise<void> {
  // Every failed attempt is recorded before the condition is written; repeats on the unchanged pod form a series.
  client.recordEvent(pod, { type: "Warning", reason: "FailedScheduling", message, component: DEFAULT_SCHEDULER, action: "Scheduling" });
  const status = (pod.status ?? {}) as { conditions?: Parameters<typeof setCondition>[0] };
  const conditions = setCondition(status.conditions, { type: "PodScheduled", status: "False", reason: "Unschedulable", message });
  const current = status.conditions?.find((c) => c.type === "PodScheduled");
  if (current?.status === "False" && current.message === message) return;
  const next = conditions.map((c) => (c.type === "PodScheduled" ? { ...c, message, lastProbeTime: null } : c));
  await client.updateStatus(PODS, { ...pod, status: { ...status, conditions: next } }).catch((e) => {
    if (!isConflict(e) && !isNotFound(e)) throw e;
  });
}
