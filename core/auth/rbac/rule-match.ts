/** Does one policy rule allow a request (kube's plugin/pkg/auth/authorizer/rbac RuleAllows and rbacv1helpers matchers). */
import type { Attributes } from "../authorizer.ts";
import type { PolicyRule } from "./policy-types.ts";

const ALL = "*";

function verbMatches(rule: PolicyRule, verb: string): boolean {
  return rule.verbs.some((v) => v === ALL || v === verb);
}

function apiGroupMatches(rule: PolicyRule, group: string): boolean {
  return (rule.apiGroups ?? []).some((g) => g === ALL || g === group);
}

/** `*`, the exact `resource/subresource`, or `*` + `/subresource`. */
function resourceMatches(rule: PolicyRule, combined: string, subresource: string): boolean {
  return (rule.resources ?? []).some((r) => r === ALL || r === combined || (subresource !== "" && r === `*/${subresource}`));
}

function resourceNameMatches(rule: PolicyRule, name: string): boolean {
  const names = rule.resourceNames ?? [];
  return names.length === 0 || names.includes(name);
}

/** A URL rule ending in `*` matches every path it prefixes. */
export function nonResourceURLMatches(ruleURL: string, path: string): boolean {
  if (ruleURL === ALL || ruleURL === path) return true;
  return ruleURL.endsWith("*") && path.startsWith(ruleURL.replace(/\*+$/, ""));
}

export function ruleAllows(a: Attributes, rule: PolicyRule): boolean {
  if (!verbMatches(rule, a.verb)) return false;
  if (!a.isResourceRequest) return (rule.nonResourceURLs ?? []).some((url) => nonResourceURLMatches(url, a.path));
  const combined = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
  return apiGroupMatches(rule, a.apiGroup) && resourceMatches(rule, combined, a.subresource) && resourceNameMatches(rule, a.name);
}
