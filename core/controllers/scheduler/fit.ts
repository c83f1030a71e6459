/**
 * Which nodes a pod fits (kube-scheduler 1.26's filter plugins NodeUnschedulable, TaintToleration,
 * NodeAffinity and NodeResourcesFit, in that order, first failure wins) and kube's FitError message.
 */
import type { KubeObject } from "../../api/types.ts";
import {
  addQuantities,
  compareQuantities,
  countQuantity,
  maxQuantity,
  parseQuantity,
  type Quantity,
  quantityOrZero,
  ZERO_QUANTITY,
} from "../../api/quantity.ts";
import { matchesNodeAffinity } from "./node-affinity.ts";
import { compareByteOrder } from "../../api/byte-order.ts";

export interface Taint {
  key: string;
  value?: string;
  effect: string;
}

export interface Toleration {
  key?: string;
  operator?: string;
  value?: string;
  effect?: string;
}

type Resources = { requests?: Record<string, unknown> };
type PodSpec = {
  containers?: { resources?: Resources }[];
  initContainers?: { resources?: Resources }[];
  tolerations?: Toleration[];
  overhead?: Record<string, unknown>;
};

/** What the pod asks for: the larger of its containers' sum and any one init container, plus overhead. */
export function podRequests(pod: KubeObject): Record<string, Quantity> {
  const spec = (pod.spec ?? {}) as PodSpec;
  const total: Record<string, Quantity> = {};
  const add = (into: Record<string, Quantity>, from: Record<string, unknown> | undefined) => {
    for (const [name, q] of Object.entries(from ?? {})) into[name] = addQuantities(into[name] ?? ZERO_QUANTITY, quantityOrZero(q));
  };
  for (const c of spec.containers ?? []) add(total, c.resources?.requests);
  for (const c of spec.initContainers ?? []) {
    for (const [name, q] of Object.entries(c.resources?.requests ?? {})) {
      total[name] = maxQuantity(total[name] ?? ZERO_QUANTITY, quantityOrZero(q));
    }
  }
  add(total, spec.overhead);
  return total;
}

export function tolerates(toleration: Toleration, taint: Taint): boolean {
  if (toleration.effect && toleration.effect !== taint.effect) return false;
  if (toleration.operator === "Exists") return !toleration.key || toleration.key === taint.key;
  return toleration.key === taint.key && (toleration.value ?? "") === (taint.value ?? "");
}

function nodeTaints(node: KubeObject): Taint[] {
  const taints = [...(((node.spec as { taints?: Taint[] } | undefined)?.taints) ?? [])];
  const ready = ((node.status as { conditions?: { type: string; status: string }[] } | undefined)?.conditions ?? []).find((c) =>
    c.type === "Ready"
  );
  // kube's node lifecycle controller taints nodes that are not Ready; kubun applies the taint here.
  if (ready?.status !== "True") taints.push({ key: "node.kubernetes.io/not-ready", effect: "NoSchedule" });
  return taints;
}

/** The first reason the pod cannot go to the node, or null when it fits. `placed` are the pods already on it. */
export function misfitReasons(pod: KubeObject, node: KubeObject, placed: KubeObject[]): string[] {
  if ((node.spec as { unschedulable?: boolean } | undefined)?.unschedulable) return ["node(s) were unschedulable"];
  const tolerations = ((pod.spec ?? {}) as PodSpec).tolerations ?? [];
  const untolerated = nodeTaints(node).find((t) =>
    (t.effect === "NoSchedule" || t.effect === "NoExecute") && !tolerations.some((tol) => tolerates(tol, t))
  );
  if (untolerated) return [`node(s) had untolerated taint {${untolerated.key}: ${untolerated.value ?? ""}}`];
  if (!matchesNodeAffinity(pod, node)) return ["node(s) didn't match Pod's node affinity/selector"];
  return resourceShortfalls(podRequests(pod), node, placed);
}

function resourceShortfalls(wanted: Record<string, Quantity>, node: KubeObject, placed: KubeObject[]): string[] {
  const allocatable = ((node.status as { allocatable?: Record<string, unknown> } | undefined)?.allocatable) ?? {};
  const reasons: string[] = [];
  if (compareQuantities(countQuantity(placed.length + 1), parseQuantity(allocatable.pods) ?? countQuantity(110)) > 0) {
    reasons.push("Too many pods");
  }
  const used: Record<string, Quantity> = {};
  for (const other of placed) {
    for (const [name, q] of Object.entries(podRequests(other))) used[name] = addQuantities(used[name] ?? ZERO_QUANTITY, q);
  }
  for (const [name, q] of Object.entries(wanted).sort(([a], [b]) => compareByteOrder(a, b))) {
    if (compareQuantities(q, ZERO_QUANTITY) <= 0) continue;
    const capacity = parseQuantity(allocatable[name]);
    if (capacity === undefined || compareQuantities(addQuantities(used[name] ?? ZERO_QUANTITY, q), capacity) > 0) {
      reasons.push(`Insufficient ${name}`);
    }
  }
  return reasons;
}

/** kube's FitError text, e.g. `0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: ...`. */
export function unschedulableMessage(reasonsPerNode: string[][]): string {
  const total = reasonsPerNode.length;
  const histogram = (labels: string[]) => {
    const counts = new Map<string, number>();
    for (const label of labels) counts.set(label, (counts.get(label) ?? 0) + 1);
    return [...counts].map(([label, n]) => `${n} ${label}`).sort().join(", ");
  };
  const preemption = reasonsPerNode.map((reasons) =>
    reasons.some((r) => r.startsWith("Insufficient") || r === "Too many pods")
      ? "No preemption victims found for incoming pod."
      : "Preemption is not helpful for scheduling"
  );
  const fit = `0/${total} nodes are available: ${histogram(reasonsPerNode.flat())}.`;
  return total === 0
    ? "no nodes available to schedule pods"
    : `${fit} preemption: 0/${total} nodes are available: ${histogram(preemption)}.`;
}
