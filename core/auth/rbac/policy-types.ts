/** The shapes of rbac.authorization.k8s.io/v1 objects the authorizer reads, and safe readers over stored objects. */
import { isPlainObject, type KubeObject } from "../../api/types.ts";

export const RBAC_GROUP = "rbac.authorization.k8s.io";
export const AUTOUPDATE_ANNOTATION = "rbac.authorization.kubernetes.io/autoupdate";
export const BOOTSTRAPPING_LABEL = "kubernetes.io/bootstrapping";

export interface PolicyRule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

export interface Subject {
  kind: string;
  name: string;
  apiGroup?: string;
  namespace?: string;
}

export interface RoleRef {
  apiGroup: string;
  kind: string;
  name: string;
}

function stringList(value: unknown): string[] | undefined {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : undefined;
}

function ruleOf(value: unknown): PolicyRule | null {
  if (!isPlainObject(value)) return null;
  return {
    verbs: stringList(value.verbs) ?? [],
    apiGroups: stringList(value.apiGroups),
    resources: stringList(value.resources),
    resourceNames: stringList(value.resourceNames),
    nonResourceURLs: stringList(value.nonResourceURLs),
  };
}

export function rulesOf(obj: KubeObject): PolicyRule[] {
  return Array.isArray(obj.rules) ? obj.rules.map(ruleOf).filter((r): r is PolicyRule => r !== null) : [];
}

export function subjectsOf(obj: KubeObject): Subject[] {
  if (!Array.isArray(obj.subjects)) return [];
  return obj.subjects.filter(isPlainObject).map((s) => ({
    kind: String(s.kind ?? ""),
    name: String(s.name ?? ""),
    apiGroup: typeof s.apiGroup === "string" ? s.apiGroup : undefined,
    namespace: typeof s.namespace === "string" ? s.namespace : undefined,
  }));
}

export function roleRefOf(obj: KubeObject): RoleRef {
  const ref = isPlainObject(obj.roleRef) ? obj.roleRef : {};
  return { apiGroup: String(ref.apiGroup ?? ""), kind: String(ref.kind ?? ""), name: String(ref.name ?? "") };
}

/** The label selectors of a ClusterRole's aggregationRule; null when it has none. */
export function aggregationSelectorsOf(obj: KubeObject): unknown[] | null {
  const rule = obj.aggregationRule;
  if (!isPlainObject(rule)) return null;
  return Array.isArray(rule.clusterRoleSelectors) ? rule.clusterRoleSelectors : [];
}
