/**
 * The conditions kube's namespace deleter reports on a terminating namespace (namespace_condition_updater.go):
 * each type is False with an "all good" reason until a pass finds trouble of that kind.
 */
import { compareByteOrder } from "../api/byte-order.ts";

export interface NamespaceCondition {
  type: string;
  status: "True" | "False";
  lastTransitionTime?: string;
  reason: string;
  message: string;
}

/** What one deletion pass found. */
export interface DeletionOutcome {
  /** Errors deleting content, one message each. */
  deleteErrors: string[];
  /** Objects left, per `<resource>.<group>`. */
  remaining: Map<string, number>;
  /** Objects left that carry each finalizer. */
  finalizers: Map<string, number>;
}

const OK: [type: string, reason: string, message: string][] = [
  ["NamespaceDeletionDiscoveryFailure", "ResourcesDiscovered", "All resources successfully discovered"],
  ["NamespaceDeletionGroupVersionParsingFailure", "ParsedGroupVersions", "All legacy kube types successfully parsed"],
  ["NamespaceDeletionContentFailure", "ContentDeleted", "All content successfully deleted, may be waiting on finalization"],
  ["NamespaceContentRemaining", "ContentRemoved", "All content successfully removed"],
  ["NamespaceFinalizersRemaining", "ContentHasNoFinalizers", "All content-preserving finalizers finished"],
];

function counted(counts: Map<string, number>, describe: (name: string, count: number) => string): string {
  return [...counts].sort(([a], [b]) => compareByteOrder(a, b)).map(([name, count]) => describe(name, count)).join(", ");
}

function problems(outcome: DeletionOutcome): Map<string, { reason: string; message: string }> {
  const found = new Map<string, { reason: string; message: string }>();
  if (outcome.deleteErrors.length > 0) {
    found.set("NamespaceDeletionContentFailure", {
      reason: "ContentDeletionFailed",
      message: `Failed to delete all resource types, ${outcome.deleteErrors.length} remaining: ${outcome.deleteErrors.join(", ")}`,
    });
  }
  if (outcome.remaining.size > 0) {
    found.set("NamespaceContentRemaining", {
      reason: "SomeResourcesRemain",
      message: `Some resources are remaining: ${counted(outcome.remaining, (gr, n) => `${gr} has ${n} resource instances`)}`,
    });
  }
  if (outcome.finalizers.size > 0) {
    found.set("NamespaceFinalizersRemaining", {
      reason: "SomeFinalizersRemain",
      message: `Some content in the namespace has finalizers remaining: ${
        counted(outcome.finalizers, (f, n) => `${f} in ${n} resource instances`)
      }`,
    });
  }
  return found;
}

/** The new condition list; a condition whose status did not change keeps its lastTransitionTime. */
export function namespaceConditions(previous: NamespaceCondition[], outcome: DeletionOutcome, now: string): NamespaceCondition[] {
  const found = problems(outcome);
  return OK.map(([type, okReason, okMessage]) => {
    const problem = found.get(type);
    const next: NamespaceCondition = problem
      ? { type, status: "True", reason: problem.reason, message: problem.message }
      : { type, status: "False", reason: okReason, message: okMessage };
    const before = previous.find((c) => c.type === type);
    const lastTransitionTime = before && before.status === next.status ? before.lastTransitionTime : now;
    return { type, status: next.status, lastTransitionTime, reason: next.reason, message: next.message };
  });
}
