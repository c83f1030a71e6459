/**
 * The replica counts a Deployment rollout moves its ReplicaSets to (kube's pkg/controller/deployment rolling.go,
 * recreate.go and util.NewRSNewReplicas / ResolveFenceposts), as pure functions of the current counts.
 */
import type { KubeObject } from "../../api/types.ts";
import { scaledValue } from "./int-or-percent.ts";
import { compareByteOrder } from "../../api/byte-order.ts";

export interface DeploymentSpec {
  replicas?: number;
  paused?: boolean;
  minReadySeconds?: number;
  revisionHistoryLimit?: number;
  progressDeadlineSeconds?: number;
  selector?: { matchLabels?: Record<string, string>; matchExpressions?: unknown[] };
  template?: { metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> }; spec?: unknown };
  strategy?: { type?: string; rollingUpdate?: { maxSurge?: unknown; maxUnavailable?: unknown } };
}

export function deploymentSpec(d: KubeObject): DeploymentSpec {
  return (d.spec ?? {}) as DeploymentSpec;
}

export function desiredReplicas(d: KubeObject): number {
  return deploymentSpec(d).replicas ?? 1;
}

export function specReplicas(rs: KubeObject): number {
  return (rs.spec as { replicas?: number } | undefined)?.replicas ?? 0;
}

export function availableReplicas(rs: KubeObject): number {
  return (rs.status as { availableReplicas?: number } | undefined)?.availableReplicas ?? 0;
}

const sum = (sets: KubeObject[], of: (rs: KubeObject) => number) => sets.reduce((total, rs) => total + of(rs), 0);

/** maxSurge rounds up, maxUnavailable down; both zero would stall, so maxUnavailable becomes 1. */
export function fenceposts(d: KubeObject): { maxSurge: number; maxUnavailable: number } {
  const spec = deploymentSpec(d);
  if (spec.strategy?.type === "Recreate") return { maxSurge: 0, maxUnavailable: 0 };
  const rolling = spec.strategy?.rollingUpdate ?? {};
  const replicas = desiredReplicas(d);
  const maxSurge = scaledValue(rolling.maxSurge ?? "25%", replicas, true);
  const maxUnavailable = scaledValue(rolling.maxUnavailable ?? "25%", replicas, false);
  return maxSurge === 0 && maxUnavailable === 0 ? { maxSurge, maxUnavailable: 1 } : { maxSurge, maxUnavailable };
}

/** The new ReplicaSet's next replica count under RollingUpdate: grow within replicas + maxSurge pods in all. */
export function rollingNewReplicas(d: KubeObject, newRS: KubeObject, all: KubeObject[]): number {
  const replicas = desiredReplicas(d);
  const current = specReplicas(newRS);
  if (current >= replicas) return replicas;
  const maxTotal = replicas + fenceposts(d).maxSurge;
  const total = sum(all, specReplicas);
  if (total >= maxTotal) return current;
  return current + Math.min(maxTotal - total, replicas - current);
}

/**
 * New replica counts for the old ReplicaSets under RollingUpdate (oldest scaled first): first the ones whose
 * pods are not available, then as many available ones as keep replicas - maxUnavailable pods available.
 */
export function rollingOldReplicas(d: KubeObject, newRS: KubeObject, old: KubeObject[]): Map<KubeObject, number> {
  const next = new Map(old.map((rs) => [rs, specReplicas(rs)]));
  if (sum(old, specReplicas) === 0) return next;
  const minAvailable = desiredReplicas(d) - fenceposts(d).maxUnavailable;
  const newUnavailable = specReplicas(newRS) - availableReplicas(newRS);
  const allPods = specReplicas(newRS) + sum(old, specReplicas);
  const maxScaledDown = allPods - minAvailable - newUnavailable;
  if (maxScaledDown <= 0) return next;
  const oldestFirst = [...old].sort((a, b) => compareByteOrder(String(a.metadata.creationTimestamp), String(b.metadata.creationTimestamp)));
  let cleaned = 0;
  for (const rs of oldestFirst) {
    const unhealthy = next.get(rs)! - availableReplicas(rs);
    if (cleaned >= maxScaledDown || unhealthy <= 0) continue;
    const down = Math.min(maxScaledDown - cleaned, unhealthy);
    next.set(rs, next.get(rs)! - down);
    cleaned += down;
  }
  const available = availableReplicas(newRS) + sum(old, (rs) => Math.min(availableReplicas(rs), next.get(rs)!));
  let toScaleDown = available - minAvailable;
  for (const rs of oldestFirst) {
    if (toScaleDown <= 0) break;
    const down = Math.min(next.get(rs)!, toScaleDown);
    next.set(rs, next.get(rs)! - down);
    toScaleDown -= down;
  }
  return next;
}

/** Old ReplicaSets beyond revisionHistoryLimit that are scaled to zero and empty, oldest revision first. */
export function replicaSetsToPrune(d: KubeObject, old: KubeObject[], revisionOf: (rs: KubeObject) => number): KubeObject[] {
  const limit = deploymentSpec(d).revisionHistoryLimit ?? 10;
  const idle = old.filter((rs) =>
    !rs.metadata.deletionTimestamp && specReplicas(rs) === 0 && ((rs.status as { replicas?: number } | undefined)?.replicas ?? 0) === 0
  );
  const excess = old.length - limit;
  if (excess <= 0) return [];
  return idle.sort((a, b) => revisionOf(a) - revisionOf(b)).slice(0, excess);
}
