/**
 * A DaemonSet's pods (kube's daemon util): made from the template with the daemon tolerations, the revision
 * hash label, and a required node affinity on metadata.name so the scheduler binds each to its node.
 */
import type { KubeObject } from "../../api/types.ts";
import { CONTROLLER_REVISION_HASH, templateOf } from "./controller-revision.ts";
import { type DaemonPodSpec, withDaemonTolerations } from "./daemonset-nodes.ts";
import { podFromTemplate } from "./owner.ts";
import { compareByteOrder } from "../../api/byte-order.ts";

/** Set by kube's DaemonSet strategy; its value labels the pods as pod-template-generation. */
const TEMPLATE_GENERATION_ANNOTATION = "deprecated.daemonset.template.generation";
const TEMPLATE_GENERATION_LABEL = "pod-template-generation";
const NAME_FIELD = "metadata.name";

interface NodeSelectorTerm {
  matchExpressions?: unknown[];
  matchFields?: { key: string; operator: string; values?: string[] }[];
}
interface Affinity {
  nodeAffinity?: { requiredDuringSchedulingIgnoredDuringExecution?: { nodeSelectorTerms?: NodeSelectorTerm[] }; [field: string]: unknown };
  [field: string]: unknown;
}

/** kube's ReplaceDaemonSetPodNodeNameNodeAffinity: the required node selector becomes "metadata.name In [node]". */
export function pinnedToNode(affinity: Affinity | undefined, nodeName: string): Affinity {
  const required = { nodeSelectorTerms: [{ matchFields: [{ key: NAME_FIELD, operator: "In", values: [nodeName] }] }] };
  const nodeAffinity = {
    ...affinity?.nodeAffinity,
    requiredDuringSchedulingIgnoredDuringExecution: {
      ...affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution,
      ...required,
    },
  };
  return { ...affinity, nodeAffinity };
}

/** The node a daemon pod is on, or is pinned to while unscheduled (kube's GetTargetNodeName). */
export function targetNodeOf(pod: KubeObject): string | undefined {
  const spec = (pod.spec ?? {}) as { nodeName?: string; affinity?: Affinity };
  if (spec.nodeName) return spec.nodeName;
  const terms = spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? [];
  for (const term of terms) {
    const field = term.matchFields?.find((f) => f.key === NAME_FIELD && f.operator === "In" && f.values?.length === 1);
    if (field) return field.values![0];
  }
  return undefined;
}

export function templateGeneration(ds: KubeObject): string | undefined {
  return ds.metadata.annotations?.[TEMPLATE_GENERATION_ANNOTATION];
}

export function newDaemonPod(ds: KubeObject, nodeName: string, hash: string): KubeObject {
  const template = templateOf(ds);
  const generation = templateGeneration(ds);
  const labels: Record<string, string> = { [CONTROLLER_REVISION_HASH]: hash };
  if (generation !== undefined) labels[TEMPLATE_GENERATION_LABEL] = generation;
  const pod = podFromTemplate(template, ds, { labels });
  const spec = pod.spec as DaemonPodSpec & { affinity?: Affinity };
  spec.tolerations = withDaemonTolerations(spec);
  spec.affinity = pinnedToNode(spec.affinity, nodeName);
  return pod;
}

/** kube's IsPodUpdated: the pod carries the current hash, or the current template generation. */
export function isDaemonPodUpdated(ds: KubeObject, pod: KubeObject, hash: string): boolean {
  const generation = templateGeneration(ds);
  const labels = pod.metadata.labels ?? {};
  return (hash !== "" && labels[CONTROLLER_REVISION_HASH] === hash) ||
    (generation !== undefined && labels[TEMPLATE_GENERATION_LABEL] === generation);
}

/** Scheduled pods first, then the oldest (kube's podByCreationTimestampAndPhase). */
export function oldestScheduledFirst(a: KubeObject, b: KubeObject): number {
  const scheduled = (p: KubeObject) => ((p.spec as { nodeName?: string } | undefined)?.nodeName ? 0 : 1);
  return scheduled(a) - scheduled(b) ||
    compareByteOrder(String(a.metadata.creationTimestamp), String(b.metadata.creationTimestamp)) ||
    compareByteOrder(String(a.metadata.name), String(b.metadata.name));
}
