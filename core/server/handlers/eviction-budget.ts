/**
 * The PodDisruptionBudget side of an eviction (kube's eviction.go): which pods need no budget (canIgnorePDB),
 * which budgets cover a pod (getPodDisruptionBudgets), and checkAndDecrement with its 429 and 403 answers.
 */
import { newForbidden, newTooManyRequests, type StatusError } from "../../api/errors.ts";
import type { KubeObject } from "../../api/types.ts";
import { budgetSelects, disruptionAllowedCondition, type PdbStatus } from "../../controllers/mod.ts";
import { podPhase } from "../../controllers/workloads/mod.ts";
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
