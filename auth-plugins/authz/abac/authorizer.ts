/**
 * The ABAC authorizer (kube's pkg/auth/authorizer/abac): Allow when some policy matches the user, the verb
 * (readonly policies allow only get, list and watch) and the resource or non-resource path; otherwise no opinion.
 */
import type { Attributes, Authorizer, PolicyRule, UserInfo } from "../../../plugins/sdk.ts";
import type { PolicySpec } from "./policy.ts";

const READ_ONLY_VERBS = new Set(["get", "list", "watch"]);

function subjectMatches(policy: PolicySpec, user: UserInfo): boolean {
  let matched = false;
  if (policy.user !== "") {
    matched = policy.user === "*" || policy.user === user.username;
    if (!matched) return false;
  }
  if (policy.group !== "") {
    matched = policy.group === "*" || user.groups.includes(policy.group);
    if (!matched) return false;
  }
  return matched;
}

function verbMatches(policy: PolicySpec, verb: string): boolean {
  return !policy.readonly || READ_ONLY_VERBS.has(verb);
}

function resourceMatches(policy: PolicySpec, a: Attributes): boolean {
  const matches = (pattern: string, value: string) => pattern === "*" || pattern === value;
  return a.isResourceRequest && matches(policy.namespace, a.namespace) && matches(policy.resource, a.resource) &&
    matches(policy.apiGroup, a.apiGroup);
}

function nonResourceMatches(policy: PolicySpec, a: Attributes): boolean {
  if (a.isResourceRequest) return false;
  const pattern = policy.nonResourcePath;
  if (pattern === "*" || pattern === a.path) return true;
  return pattern.endsWith("*") && a.path.startsWith(pattern.replace(/\*+$/, ""));
}

function policyMatches(policy: PolicySpec, a: Attributes): boolean {
  return subjectMatches(policy, a.user) && verbMatches(policy, a.verb) && (resourceMatches(policy, a) || nonResourceMatches(policy, a));
}

/** kube's PolicyList.RulesFor: the policies of the user in the namespace as rules. */
function rulesOf(policies: PolicySpec[], user: UserInfo, namespace: string): PolicyRule[] {
  const rules: PolicyRule[] = [];
  for (const policy of policies) {
    if (!subjectMatches(policy, user) || (policy.namespace !== "*" && policy.namespace !== namespace)) continue;
    const verbs = policy.readonly ? [...READ_ONLY_VERBS] : ["*"];
    if (policy.resource !== "") rules.push({ verbs, apiGroups: [policy.apiGroup], resources: [policy.resource] });
    if (policy.nonResourcePath !== "") rules.push({ verbs, nonResourceURLs: [policy.nonResourcePath] });
  }
  return rules;
}

export function abacAuthorizer(policies: PolicySpec[]): Authorizer {
  return {
    authorize(a) {
      const allowed = policies.some((policy) => policyMatches(policy, a));
      return Promise.resolve(allowed ? { decision: "Allow" } : { decision: "NoOpinion", reason: "No policy matched." });
    },
    rulesFor(user, namespace) {
      return Promise.resolve({ rules: rulesOf(policies, user, namespace), incomplete: false, errors: [] });
    },
  };
}
