/** nodeSelector and required node affinity (matchExpressions on labels, matchFields on metadata.name). */
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

function meets(requirement: Requirement, value: string | undefined): boolean {
  const values = requirement.values ?? [];
  switch (requirement.operator) {
    case "In":
      return value !== undefined && values.includes(value);
    case "NotIn":
      return value === undefined || !values.includes(value);
    case "Exists":
      return value !== undefined;
    case "DoesNotExist":
      return value === undefined;
    case "Gt":
      return value !== undefined && Number(value) > Number(values[0]);
    case "Lt":
      return value !== undefined && Number(value) < Number(values[0]);
    default:
      return false;
  }
}

function termMatches(term: NodeSelectorTerm, node: KubeObject): boolean {
  const labels = node.metadata.labels ?? {};
  const fields: Record<string, string> = { "metadata.name": String(node.metadata.name) };
  const expressions = term.matchExpressions ?? [];
  const matchFields = term.matchFields ?? [];
  if (expressions.length === 0 && matchFields.length === 0) return false;
  return expressions.every((r) => meets(r, labels[r.key])) && matchFields.every((r) => meets(r, fields[r.key]));
}

export function matchesNodeAffinity(pod: KubeObject, node: KubeObject): boolean {
  const spec = (pod.spec ?? {}) as AffinitySpec;
  const labels = node.metadata.labels ?? {};
  if (!Object.entries(spec.nodeSelector ?? {}).every(([k, v]) => labels[k] === v)) return false;
  const terms = spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms;
  return terms === undefined || terms.some((term) => termMatches(term, node));
}
