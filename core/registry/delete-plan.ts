/**
 * What one DELETE does to a stored object, decided as kube's registry Store.Delete decides it: rest.BeforeDelete
 * (graceful deletion), deletionFinalizersForGarbageCollection (propagation finalizers), markAsDeleting (kinds
 * without graceful deletion that finalizers hold), and the namespace and CRD REST's own Delete.
 */
import type { KubeObject } from "../api/types.ts";
import { finalizersAfterDelete } from "./delete-propagation.ts";
import type { DeleteOptions } from "./store-options.ts";
import type { Strategy } from "./strategy.ts";

export type DeletePlan =
  /** Nothing is written; the answer is the stored object (kube's pendingGraceful, or a namespace still finalizing). */
  | { action: "keep" }
  /** The object is removed from storage as it is. */
  | { action: "remove" }
  /** `next` is written; when `thenRemove`, it is then removed (a graceful kind deleted with a 0 grace period). */
  | { action: "mark"; next: KubeObject; thenRemove: boolean };

/** A metav1.Time at `ms` (whole seconds, as kube serializes it). */
function timestampAt(ms: number): string {
  return `${new Date(Math.floor(ms / 1000) * 1000).toISOString().slice(0, 19)}Z`;
}

/**
 * kube's rest.BeforeDelete for a kind with graceful deletion: the object with its deletion timestamp and grace
 * period set, or shortened when it is already terminating; "pending" when a deletion with an equal or shorter
 * grace period is already under way.
 */
function beforeGracefulDelete(
  strategy: Strategy,
  current: KubeObject,
  requested: number | undefined,
  now: number,
): { next: KubeObject; period: number } | "pending" | "not-graceful" {
  const meta = current.metadata;
  const next = structuredClone(current);
  if (meta.deletionTimestamp) {
    const pendingPeriod = meta.deletionGracePeriodSeconds ?? 0;
    // Terminating with no grace period left: nothing graceful remains to do.
    if (pendingPeriod <= 0) return "not-graceful";
    if (requested === undefined || requested >= pendingPeriod) return "pending";
    // Only a shorter grace period may be asked for; the deletion time moves earlier by the difference.
    next.metadata.deletionTimestamp = timestampAt(Date.parse(meta.deletionTimestamp) + (requested - pendingPeriod) * 1000);
    next.metadata.deletionGracePeriodSeconds = requested;
    return { next, period: requested };
  }
  const period = strategy.checkGracefulDelete!(current, requested);
  // The deletion timestamp is when the grace period ends, not when the request came.
  next.metadata.deletionTimestamp = timestampAt(now + period * 1000);
  next.metadata.deletionGracePeriodSeconds = period;
  if (strategy.tracksGeneration) next.metadata.generation = (meta.generation ?? 0) + 1;
  return { next, period };
}

/** kube's markAsDeleting: a held object of a kind without graceful deletion is terminating now, with no grace period. */
function markAsDeleting(strategy: Strategy, next: KubeObject, now: number): void {
  const meta = next.metadata;
  if (!meta.deletionTimestamp && strategy.tracksGeneration) meta.generation = (meta.generation ?? 0) + 1;
  if (!meta.deletionTimestamp || Date.parse(meta.deletionTimestamp) > now) meta.deletionTimestamp = timestampAt(now);
  meta.deletionGracePeriodSeconds = 0;
}

/** kube's registry Store.Delete (and updateForGracefulDeletionAndFinalizers) for one stored object. */
function planStoreDelete(strategy: Strategy, current: KubeObject, options: DeleteOptions, now: number): DeletePlan {
  const graceful = strategy.checkGracefulDelete ? beforeGracefulDelete(strategy, current, options.gracePeriodSeconds, now) : "not-graceful";
  // A pending graceful deletion keeps its finalizers: DeleteOptions change them only when a deletion starts or after.
  if (graceful === "pending") return { action: "keep" };
  const finalizers = current.metadata.finalizers ?? [];
  // The generic store reads orphanDependents=false as no orphaning and no foreground deletion (shouldOrphanDependents,
  // shouldDeleteDependents).
  const requested = options.orphanDependents === undefined ? options.propagationPolicy : options.orphanDependents ? "Orphan" : "Background";
  const propagated = finalizersAfterDelete(strategy.defaultPropagation, finalizers, requested);
  if (graceful === "not-graceful" && finalizers.length === 0 && !propagated) return { action: "remove" };
  const next = graceful === "not-graceful" ? structuredClone(current) : graceful.next;
  if (propagated) next.metadata.finalizers = propagated;
  const held = (next.metadata.finalizers ?? []).length > 0;
  if (graceful === "not-graceful") {
    if (!held) return { action: "remove" };
    markAsDeleting(strategy, next, now);
    return { action: "mark", next, thenRemove: false };
  }
  return { action: "mark", next, thenRemove: !held && graceful.period === 0 };
}

/**
 * kube's namespace and CRD REST Delete: the first DELETE only marks the object terminating (no grace period) with
 * the kind's changes; later ones answer it unchanged while the kind's own finalization holds it (a namespace's
 * spec.finalizers), then delete as the generic store does.
 */
function planMarkedDelete(strategy: Strategy, current: KubeObject, options: DeleteOptions, now: number): DeletePlan {
  if (current.metadata.deletionTimestamp) {
    return strategy.holdsDeletion?.(current) ? { action: "keep" } : planStoreDelete(strategy, current, options, now);
  }
  const next = structuredClone(current);
  next.metadata.deletionTimestamp = timestampAt(now);
  // The namespace REST reads orphanDependents=false as foreground deletion (shouldHaveDeleteDependentsFinalizer).
  const requested = options.orphanDependents === undefined ? options.propagationPolicy : options.orphanDependents ? "Orphan" : "Foreground";
  strategy.markTerminating!(next, requested);
  return { action: "mark", next, thenRemove: false };
}

export function planDelete(strategy: Strategy, current: KubeObject, options: DeleteOptions, now = Date.now()): DeletePlan {
  // rest.BeforeDelete: a negative grace period, asked for or stored, counts as 1 second.
  if ((options.gracePeriodSeconds ?? 0) < 0) options = { ...options, gracePeriodSeconds: 1 };
  if ((current.metadata.deletionGracePeriodSeconds ?? 0) < 0) {
    current = { ...current, metadata: { ...current.metadata, deletionGracePeriodSeconds: 1 } };
  }
  return strategy.markTerminating ? planMarkedDelete(strategy, current, options, now) : planStoreDelete(strategy, current, options, now);
}

/**
 * kube's ShouldDeleteDuringUpdate: an update leaves a terminating object without a grace period (0 or none) deleted
 * once its last finalizer is gone, unless the kind holds its deletion.
 */
export function deletesDuringUpdate(strategy: Strategy, current: KubeObject, next: KubeObject): boolean {
  const { deletionTimestamp, deletionGracePeriodSeconds } = current.metadata;
  return Boolean(deletionTimestamp) && !deletionGracePeriodSeconds && (next.metadata.finalizers ?? []).length === 0 &&
    !(strategy.holdsDeletion?.(next) ?? false);
}
