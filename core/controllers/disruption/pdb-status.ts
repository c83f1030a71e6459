/**
 * The status kube's disruption controller (pkg/controller/disruption, trySync) computes for a
 * PodDisruptionBudget from the pods its selector picks: expectedPods and desiredHealthy by getExpectedPodCount
 * (minAvailable as a number counts the pods; maxUnavailable and percentages scale the pods' controllers),
 * currentHealthy (ready, not being deleted, not recently evicted), disruptionsAllowed, observedGeneration, the
 * disruptedPods still pending and the DisruptionAllowed condition; failSafe's SyncFailed when a scale is unknown.
 */
import { isEverything, labelSelectorFromObject, matchesLabels } from "../../api/label-selector.ts";
import type { KubeObject } from "../../api/types.ts";
import { isPodReady } from "../workloads/mod.ts";
import { scaledValue } from "../workloads/mod.ts";

/** kube's DeletionTimeout: an eviction the controller has not seen carried out by then no longer counts. */
export const DELETION_TIMEOUT_MS = 2 * 60 * 1000;

export interface PdbSpec {
  minAvailable?: number | string;
  maxUnavailable?: number | string;
}

export interface MetaCondition {
  type: string;
  status: string;
  observedGeneration?: number;
  lastTransitionTime: string;
  reason: string;
  message: string;
}

export interface PdbStatus {
  observedGeneration?: number;
  disruptedPods?: Record<string, string>;
  disruptionsAllowed: number;
  currentHealthy: number;
  desiredHealthy: number;
  expectedPods: number;
  conditions?: MetaCondition[];
}

/** The expected number of pods their controllers want, or why it cannot be known (getExpectedScale). */
export type ExpectedScale = { count: number } | { error: string };

/** A budget's selector as kube reads it (getPodsForPdb, getPodDisruptionBudgets): an empty or invalid one selects nothing. */
export function budgetSelects(pdb: KubeObject, pod: KubeObject): boolean {
  if (pod.metadata.namespace !== pdb.metadata.namespace) return false;
  try {
    const selector = labelSelectorFromObject((pdb.spec as { selector?: never } | undefined)?.selector);
    return !isEverything(selector) && matchesLabels(selector, pod.metadata.labels);
  } catch {
    return false;
  }
}

function statusOf(pdb: KubeObject): Partial<PdbStatus> {
  return (pdb.status ?? {}) as Partial<PdbStatus>;
}

/** apimeta.SetStatusCondition: the transition time moves only when the status changes. */
export function withCondition(
  conditions: MetaCondition[] | undefined,
  wanted: Omit<MetaCondition, "lastTransitionTime">,
  now: string,
): MetaCondition[] {
  const list = [...conditions ?? []];
  const index = list.findIndex((c) => c.type === wanted.type);
  const current = index >= 0 ? list[index] : undefined;
  const next = { ...wanted, lastTransitionTime: current && current.status === wanted.status ? current.lastTransitionTime : now };
  if (index >= 0) {
    list[index] = {
      type: next.type,
      status: next.status,
      observedGeneration: next.observedGeneration,
      lastTransitionTime: next.lastTransitionTime,
      reason: next.reason,
      message: next.message,
    };
  } else list.push(next);
  return list;
}

/** pdbhelper.UpdateDisruptionAllowedCondition. */
export function disruptionAllowedCondition(status: PdbStatus, now: string): MetaCondition[] {
  const allowed = status.disruptionsAllowed > 0;
  return withCondition(status.conditions, {
    type: "DisruptionAllowed",
    status: allowed ? "True" : "False",
    observedGeneration: status.observedGeneration,
    reason: allowed ? "SufficientPods" : "InsufficientPods",
    message: "",
  }, now);
}

/** getExpectedPodCount: [expectedCount, desiredHealthy], or the scale error. */
function expectedAndDesired(spec: PdbSpec, pods: KubeObject[], scale: () => ExpectedScale): [number, number] | string {
  if (spec.maxUnavailable !== undefined) {
    const expected = scale();
    if ("error" in expected) return expected.error;
    const maxUnavailable = scaledValue(spec.maxUnavailable, expected.count, true);
    return [expected.count, Math.max(0, expected.count - maxUnavailable)];
  }
  if (typeof spec.minAvailable === "number") return [pods.length, spec.minAvailable];
  if (typeof spec.minAvailable === "string") {
    const expected = scale();
    if ("error" in expected) return expected.error;
    return [expected.count, scaledValue(spec.minAvailable, expected.count, true)];
  }
  return [0, 0];
}

/** buildDisruptedPodMap: evictions still expected to happen (pod present, not yet deleting, within the timeout). */
function pendingDisruptions(pdb: KubeObject, pods: KubeObject[], now: number): Record<string, string> {
  const recorded = statusOf(pdb).disruptedPods ?? {};
  const pending: Record<string, string> = {};
  for (const pod of pods) {
    const name = String(pod.metadata.name);
    const at = recorded[name];
    if (pod.metadata.deletionTimestamp || at === undefined) continue;
    if (Date.parse(at) + DELETION_TIMEOUT_MS >= now) pending[name] = at;
  }
  return pending;
}

export function desiredPdbStatus(pdb: KubeObject, pods: KubeObject[], scale: () => ExpectedScale, now: number): PdbStatus {
  const previous = statusOf(pdb);
  const nowText = new Date(now).toISOString().replace(/\.\d{3}Z$/, "Z");
  const counts = expectedAndDesired((pdb.spec ?? {}) as PdbSpec, pods, scale);
  if (typeof counts === "string") {
    // failSafe: no disruptions, the failure in the condition, everything else as it was.
    const kept: PdbStatus = {
      disruptionsAllowed: 0,
      currentHealthy: previous.currentHealthy ?? 0,
      desiredHealthy: previous.desiredHealthy ?? 0,
      expectedPods: previous.expectedPods ?? 0,
    };
    if (previous.observedGeneration !== undefined) kept.observedGeneration = previous.observedGeneration;
    if (previous.disruptedPods) kept.disruptedPods = previous.disruptedPods;
    kept.conditions = withCondition(previous.conditions, {
      type: "DisruptionAllowed",
      status: "False",
      observedGeneration: previous.observedGeneration,
      reason: "SyncFailed",
      message: counts,
    }, nowText);
    return kept;
  }
  const [expectedPods, desiredHealthy] = counts;
  const disrupted = pendingDisruptions(pdb, pods, now);
  const currentHealthy =
    pods.filter((pod) => !pod.metadata.deletionTimestamp && disrupted[String(pod.metadata.name)] === undefined && isPodReady(pod)).length;
  const allowed = currentHealthy - desiredHealthy;
  const status: PdbStatus = {
    observedGeneration: pdb.metadata.generation,
    disruptionsAllowed: expectedPods <= 0 || allowed <= 0 ? 0 : allowed,
    currentHealthy,
    desiredHealthy,
    expectedPods,
    conditions: previous.conditions,
  };
  if (Object.keys(disrupted).length > 0) status.disruptedPods = disrupted;
  status.conditions = disruptionAllowedCondition(status, nowText);
  return status;
}
