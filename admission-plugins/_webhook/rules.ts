/** Whether a webhook rule covers a request (k8s.io/apiserver pkg/admission/plugin/webhook/predicates/rules). */
import type { GroupVersionResourceRef, Operation } from "../../core/admission/types.ts";
import type { Rule } from "./webhook.ts";

export interface RuleSubject {
  operation: Operation;
  resource: GroupVersionResourceRef;
  subresource: string;
  /** "" for cluster-scoped requests; a Namespace's own name for requests on a Namespace. */
  namespace: string;
}

function exactOrWildcard(items: readonly string[] | undefined, requested: string): boolean {
  return (items ?? []).some((item) => item === "*" || item === requested);
}

function isNamespaceResource(resource: GroupVersionResourceRef): boolean {
  return resource.group === "" && resource.version === "v1" && resource.resource === "namespaces";
}

function scopeMatches(scope: string | undefined, subject: RuleSubject): boolean {
  if (scope === undefined || scope === "*") return true;
  // Namespace objects are cluster-scoped even though their requests carry a namespace (their own name).
  if (scope === "Namespaced") return !isNamespaceResource(subject.resource) && subject.namespace !== "";
  if (scope === "Cluster") return isNamespaceResource(subject.resource) || subject.namespace === "";
  return false;
}

/** `*` is every resource without subresources, `*\/*` everything, `pods/*` every pods subresource, `*\/status` every status. */
function resourceMatches(patterns: readonly string[] | undefined, resource: string, subresource: string): boolean {
  return (patterns ?? []).some((pattern) => {
    const slash = pattern.indexOf("/");
    const [res, sub] = slash < 0 ? [pattern, ""] : [pattern.slice(0, slash), pattern.slice(slash + 1)];
    return (res === "*" || res === resource) && (sub === "*" || sub === subresource);
  });
}

export function ruleMatches(rule: Rule, subject: RuleSubject): boolean {
  return scopeMatches(rule.scope, subject) &&
    exactOrWildcard(rule.operations, subject.operation) &&
    exactOrWildcard(rule.apiGroups, subject.resource.group) &&
    exactOrWildcard(rule.apiVersions, subject.resource.version) &&
    resourceMatches(rule.resources, subject.resource.resource, subject.subresource);
}

const ADMISSION_CONFIGURATION_RESOURCES = new Set([
  "mutatingwebhookconfigurations",
  "validatingwebhookconfigurations",
  "validatingadmissionpolicies",
  "validatingadmissionpolicybindings",
]);

/** Webhooks never see writes of admission configuration, so a broken webhook cannot lock out its own repair. */
export function isExemptFromWebhooks(resource: GroupVersionResourceRef): boolean {
  return resource.group === "admissionregistration.k8s.io" && ADMISSION_CONFIGURATION_RESOURCES.has(resource.resource);
}
