/** nodeSelector and required node affinity (matchExpressions on labels, matchFields on metadata.name). */
import { matchesLabels, nodeSelectorRequirementsAsSelector, selectorFromSet } from "../../api/label-selector.ts";
import type { KubeObject } from "../../api/types.ts";

interface Requirement {
  key: string;
  operator: string;
  values?: string[];
}

interface NodeSelectorTerm {
  matchExpressions?: Requirement[];
  matchFields?: Requirement[];
}

type AffinitySpec = {
  nodeSelector?: Record<string, string>;
  affinity?: { nodeAffinity?: { requiredDuringSchedulingIgnoredDuringExecution?: { nodeSelectorTerms?: NodeSelectorTerm[] } } };
};

/** kube's nodeaffinity term match: label requirements and field requirements (metadata.name), both must hold; an empty term matches nothing. */
function termMatches(term: NodeSelectorTerm, node: KubeObject): boolean {
  const expressions = term.matchExpressions ?? [];
  const matchFields = term.matchFields ?? [];
  if (expressions.length === 0 && matchFields.length === 0) return false;
  const labelsMatch = expressions.length === 0 || matchesLabels(nodeSelectorRequirementsAsSelector(expressions), node.metadata.labels);
  return labelsMatch && matchFields.every((r) => fieldMatches(r, String(node.metadata.name)));
}

/** NodeSelectorRequirementsAsFieldSelector: only metadata.name, with In or NotIn (a field selector, not labels). */
function fieldMatches(requirement: Requirement, nodeName: string): boolean {
  if (requirement.key !== "metadata.name") return false;
  const values = requirement.values ?? [];
  if (requirement.operator === "In") return values.includes(nodeName);
  if (requirement.operator === "NotIn") return !values.includes(nodeName);
  return false;
}

export function matchesNodeAffinity(pod: KubeObject, node: KubeObject): boolean {
  const spec = (pod.spec ?? {}) as AffinitySpec;
  const labels = node.metadata.labels ?? {};
  if (!matchesLabels(selectorFromSet(spec.nodeSelector ?? {}), labels)) return false;
  const terms = spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms;
  return terms === undefined || terms.some((term) => termMatches(term, node));
}
