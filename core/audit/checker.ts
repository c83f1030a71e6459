/**
 * Which level, omitted stages and managed-field omission a request gets: a port of kube's policy checker
 * (k8s.io/apiserver pkg/audit/policy/checker.go, EvaluatePolicyRule/ruleMatches): the first matching rule wins;
 * no match is level None with the policy-wide settings.
 */
import type { Level, Policy, PolicyRule, Stage } from "./policy.ts";

/** The request attributes the checker reads (kube's authorizer.Attributes). */
export interface AuditAttributes {
  user?: { username: string; groups: string[] };
  verb: string;
  isResourceRequest: boolean;
  path: string;
  apiGroup: string;
  namespace: string;
  resource: string;
  subresource: string;
  name: string;
}

export interface RequestAuditConfig {
  level: Level;
  omitStages: Stage[];
  omitManagedFields: boolean;
}

export type PolicyRuleEvaluator = (attributes: AuditAttributes) => RequestAuditConfig;

/** NewPolicyRuleEvaluator: each rule's omitStages become the union with the policy's. */
export function policyRuleEvaluator(policy: Policy): PolicyRuleEvaluator {
  const rules = policy.rules.map((rule) => ({
    rule,
    config: {
      level: rule.level as Level,
      omitStages: [...new Set([...policy.omitStages, ...rule.omitStages])] as Stage[],
      // isOmitManagedFields: the rule's own setting when present, else the policy's.
      omitManagedFields: rule.omitManagedFields ?? policy.omitManagedFields,
    },
  }));
  const fallback: RequestAuditConfig = {
    level: "None",
    omitStages: policy.omitStages as Stage[],
    omitManagedFields: policy.omitManagedFields,
  };
  return (attributes) => rules.find(({ rule }) => ruleMatches(rule, attributes))?.config ?? fallback;
}

function ruleMatches(rule: PolicyRule, a: AuditAttributes): boolean {
  if (rule.users.length > 0 && (!a.user || !rule.users.includes(a.user.username))) return false;
  if (rule.userGroups.length > 0 && (!a.user || !a.user.groups.some((group) => rule.userGroups.includes(group)))) return false;
  if (rule.verbs.length > 0 && !rule.verbs.includes(a.verb)) return false;
  if (rule.namespaces.length > 0 || rule.resources.length > 0) return ruleMatchesResource(rule, a);
  if (rule.nonResourceURLs.length > 0) return !a.isResourceRequest && rule.nonResourceURLs.some((spec) => pathMatches(a.path, spec));
  return true;
}

/** pathMatches: `*`, the exact path, or a prefix ending in `*`. */
function pathMatches(path: string, spec: string): boolean {
  if (spec === "*" || spec === path) return true;
  return spec.endsWith("*") && path.startsWith(spec.replace(/\*+$/, ""));
}

/** ruleMatchesResource: namespaces ("" for cluster-scoped), then group, `resource/subresource`, `*`, `*\/sub`, `res/*`, names. */
function ruleMatchesResource(rule: PolicyRule, a: AuditAttributes): boolean {
  if (!a.isResourceRequest) return false;
  if (rule.namespaces.length > 0 && !rule.namespaces.includes(a.namespace)) return false;
  if (rule.resources.length === 0) return true;
  const combined = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
  for (const gr of rule.resources) {
    if (gr.group !== a.apiGroup) continue;
    if (gr.resources.length === 0) return true;
    if (gr.resourceNames.length > 0 && !gr.resourceNames.includes(a.name)) continue;
    for (const resource of gr.resources) {
      if (resource === combined || resource === "*") return true;
      if (a.subresource && resource.startsWith("*/") && a.subresource === resource.slice(2)) return true;
      if (resource.endsWith("/*") && a.resource === resource.slice(0, -2)) return true;
    }
  }
  return false;
}
