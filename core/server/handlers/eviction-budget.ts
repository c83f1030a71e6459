/**
 * The PodDisruptionBudget side of an eviction (kube's eviction.go): which pods need no budget (canIgnorePDB),
 * which budgets cover a pod (getPodDisruptionBudgets), checkAndDecrement with its 429 and 403 answers, and
 * EvictionREST.Create's retried loop over them (planEviction).
 */
import { newForbidden, newTooManyRequests, type StatusError } from "../../api/errors.ts";
import { type Backoff, retryOnConflict } from "../../api/retry.ts";
import type { KubeObject } from "../../api/types.ts";
import { budgetSelects, disruptionAllowedCondition, type PdbStatus } from "../../controllers/mod.ts";
import { isPodReady, podPhase } from "../../controllers/workloads/mod.ts";
import { listObjects } from "../../registry/list.ts";
import { nowTimestamp } from "../../registry/object-meta.ts";
import type { DeleteOptions } from "../../registry/store-options.ts";
import type { ResourceStore } from "../../registry/store.ts";

const VIOLATION = "Cannot evict pod as it would violate the pod's disruption budget.";
/** kube's MaxDisruptedPodSize. */
const MAX_DISRUPTED_PODS = 2000;

/** canIgnorePDB: the pod already caused its disruption (terminal), never counted (pending), or is going. */
export function canIgnorePdb(pod: KubeObject): boolean {
  return ["Succeeded", "Failed", "Pending"].includes(podPhase(pod)) || pod.metadata.deletionTimestamp !== undefined;
}

export function withResourceVersion(options: DeleteOptions, pod: KubeObject): DeleteOptions {
  if (options.preconditions?.resourceVersion !== undefined) return options;
  return { ...options, preconditions: { ...options.preconditions, resourceVersion: pod.metadata.resourceVersion } };
}

function budgetCause(message: string) {
  return [{ reason: "DisruptionBudget", message }];
}

/** createTooManyRequestsError. */
export function stillProcessing(pdbName: string): StatusError {
  return newTooManyRequests(VIOLATION, 10, budgetCause(`The disruption budget ${pdbName} is still being processed by the server.`));
}

/** checkAndDecrement's refusals, or the status with one disruption used. */
export function decremented(pdb: KubeObject, podName: string, dryRun: boolean): PdbStatus {
  const name = String(pdb.metadata.name);
  const status = {
    disruptionsAllowed: 0,
    currentHealthy: 0,
    desiredHealthy: 0,
    expectedPods: 0,
    ...(pdb.status as Partial<PdbStatus> | undefined),
  };
  if ((status.observedGeneration ?? 0) < (pdb.metadata.generation ?? 0)) throw stillProcessing(name);
  const forbidden = (why: string) =>
    newForbidden(`poddisruptionbudget.policy "${name}" is forbidden: ${why}`, { name, group: "policy", kind: "poddisruptionbudget" });
  if (status.disruptionsAllowed < 0) throw forbidden("pdb disruptions allowed is negative");
  if (Object.keys(status.disruptedPods ?? {}).length > MAX_DISRUPTED_PODS) {
    throw forbidden("DisruptedPods map too big - too many evictions not confirmed by PDB controller");
  }
  if (status.disruptionsAllowed === 0) {
    throw newTooManyRequests(
      VIOLATION,
      0,
      budgetCause(`The disruption budget ${name} needs ${status.desiredHealthy} healthy pods and has ${status.currentHealthy} currently`),
    );
  }
  const next: PdbStatus = { ...status, disruptionsAllowed: status.disruptionsAllowed - 1 };
  if (next.disruptionsAllowed === 0) next.conditions = disruptionAllowedCondition(next, nowTimestamp());
  if (!dryRun) next.disruptedPods = { ...next.disruptedPods, [podName]: nowTimestamp() };
  return next;
}

/** getPodDisruptionBudgets: the namespace's budgets whose (non-empty, valid) selector matches the pod. */
export async function budgetsFor(pdbs: ResourceStore, pod: KubeObject): Promise<KubeObject[]> {
  const { items } = (await listObjects(pdbs, { namespace: pod.metadata.namespace ?? "", revision: 0, limit: 0 })).list;
  return items.filter((pdb) => budgetSelects(pdb, pod));
}

/** kube's EvictionsRetry. */
const EVICTIONS_RETRY: Backoff = { steps: 20, durationMs: 500, factor: 1, jitter: 0.1 };

/**
 * How an allowed eviction deletes the pod: with `deleteOptions`; a conflict then means budget `pdbName` is still
 * being processed. Or the pod has several budgets, which kube answers with a 500 Status.
 */
export type EvictionPlan = { deleteOptions: DeleteOptions; pdbName?: string } | { moreThanOneBudget: true };

/**
 * kube's EvictionREST.Create up to the pod's deletion: the pod and its budgets are read, checked and the budget
 * decremented again on a conflict (retry.RetryOnConflict with EvictionsRetry). The decrement is an UpdateStatus
 * naming the budget's resourceVersion as read, so a budget changed meanwhile is read and checked again.
 */
export function planEviction(
  pods: ResourceStore,
  pdbs: ResourceStore,
  namespace: string,
  name: string,
  options: DeleteOptions,
): Promise<EvictionPlan> {
  return retryOnConflict(EVICTIONS_RETRY, async (): Promise<EvictionPlan> => {
    const pod = await pods.get(namespace, name);
    if (canIgnorePdb(pod)) {
      const terminal = ["Succeeded", "Failed"].includes(podPhase(pod)) || pod.metadata.deletionTimestamp !== undefined;
      return { deleteOptions: terminal ? options : withResourceVersion(options, pod) };
    }
    const budgets = await budgetsFor(pdbs, pod);
    if (budgets.length > 1) return { moreThanOneBudget: true };
    const pdb = budgets[0];
    if (!pdb) return { deleteOptions: options };
    const status = (pdb.status ?? {}) as Partial<PdbStatus>;
    const desired = status.desiredHealthy ?? 0;
    if (!isPodReady(pod) && (status.currentHealthy ?? 0) >= desired && desired > 0) {
      // An unready pod does not count toward healthy: delete it, unless it became ready meanwhile.
      return { deleteOptions: withResourceVersion(options, pod), pdbName: String(pdb.metadata.name) };
    }
    const next = decremented(pdb, name, options.dryRun ?? false);
    if (!options.dryRun) {
      await pdbs.update(namespace, String(pdb.metadata.name), () => ({ ...pdb, status: next }), { subresource: "status" });
    }
    return { deleteOptions: options };
  });
}
