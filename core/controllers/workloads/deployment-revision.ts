/** Revision annotations and template matching between a Deployment and its ReplicaSets (kube's deployment util). */
import { isDeepStrictEqual } from "node:util";
import type { KubeObject } from "../../api/types.ts";
import type { PodTemplate } from "./owner.ts";
import { templateWithGoZeroValues } from "./template-zeros.ts";

export const REVISION_ANNOTATION = "deployment.kubernetes.io/revision";
export const DESIRED_REPLICAS_ANNOTATION = "deployment.kubernetes.io/desired-replicas";
export const MAX_REPLICAS_ANNOTATION = "deployment.kubernetes.io/max-replicas";
export const REVISION_HISTORY_ANNOTATION = "deployment.kubernetes.io/revision-history";
export const POD_TEMPLATE_HASH = "pod-template-hash";
/** kube's maxRevHistoryLengthInChars (deployment sync.go): the revision history stays within ~100 entries. */
const MAX_REVISION_HISTORY_CHARS = 2000;

/** Deployment annotations kube does not copy onto its ReplicaSets. */
const NOT_COPIED = new Set([
  "kubectl.kubernetes.io/last-applied-configuration",
  REVISION_ANNOTATION,
  REVISION_HISTORY_ANNOTATION,
  DESIRED_REPLICAS_ANNOTATION,
  MAX_REPLICAS_ANNOTATION,
  "deprecated.deployment.rollback.to",
]);

export function revisionOf(obj: KubeObject): number {
  const value = Number(obj.metadata.annotations?.[REVISION_ANNOTATION] ?? 0);
  return Number.isFinite(value) ? value : 0;
}

export function maxRevision(sets: KubeObject[]): number {
  return sets.reduce((max, rs) => Math.max(max, revisionOf(rs)), 0);
}

/** The template without the pod-template-hash label, as Go holds it (kube's EqualIgnoreHash). */
function withoutHash(template: unknown): unknown {
  const copy = structuredClone(templateWithGoZeroValues((template ?? {}) as PodTemplate));
  if (copy.metadata?.labels) {
    delete copy.metadata.labels[POD_TEMPLATE_HASH];
    if (Object.keys(copy.metadata.labels).length === 0) delete copy.metadata.labels;
  }
  return copy;
}

export function sameTemplate(a: unknown, b: unknown): boolean {
  return isDeepStrictEqual(withoutHash(a), withoutHash(b));
}

/**
 * The revision history a reused ReplicaSet keeps when it becomes the newest revision again (a rollback), as kube's
 * SetNewReplicaSetAnnotations does: its previous revision is appended, the oldest entries dropped past the limit.
 */
export function revisionHistoryAfter(history: string | undefined, previousRevision: string): string | undefined {
  if (!history) return previousRevision;
  const entries = history.split(",");
  let length = history.length + previousRevision.length + 1;
  let start = 0;
  while (length > MAX_REVISION_HISTORY_CHARS && start < entries.length) length -= entries[start++].length + 1;
  // kube leaves the history as it was when even the previous revision alone is over the limit.
  if (length > MAX_REVISION_HISTORY_CHARS) return history;
  return [...entries.slice(start), previousRevision].join(",");
}

/** The Deployment's annotations as its new ReplicaSet carries them, with the revision and replica bounds. */
export function replicaSetAnnotations(
  d: KubeObject,
  current: Record<string, string> | undefined,
  bounds: { revision: number; desired: number; max: number },
): Record<string, string> {
  const copied = Object.fromEntries(Object.entries(d.metadata.annotations ?? {}).filter(([key]) => !NOT_COPIED.has(key)));
  const annotations: Record<string, string> = {
    ...current,
    ...copied,
    [REVISION_ANNOTATION]: String(bounds.revision),
    [DESIRED_REPLICAS_ANNOTATION]: String(bounds.desired),
    [MAX_REPLICAS_ANNOTATION]: String(bounds.max),
  };
  const previous = current?.[REVISION_ANNOTATION];
  if (previous !== undefined && Number(previous) < bounds.revision) {
    const history = revisionHistoryAfter(current?.[REVISION_HISTORY_ANNOTATION], previous);
    if (history !== undefined) annotations[REVISION_HISTORY_ANNOTATION] = history;
  }
  return annotations;
}
