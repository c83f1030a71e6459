/**
 * Which FlowSchema a request belongs to (kube's apf_controller.go matchesFlowSchema and rule_wrappers /
 * match.go: matchesPolicyRule, matchesSubject, matchesResourcePolicyRule, matchesNonResourcePolicyRule), and its
 * flow distinguisher (ByUser: the user name; ByNamespace: the namespace).
 */
import type { KubeObject } from "../api/types.ts";
import { compareByteOrder } from "../api/byte-order.ts";

/** What classification reads of a request (kube's RequestDigest: RequestInfo and user.Info). */
export interface RequestDigest {
  username: string;
  groups: readonly string[];
  isResourceRequest: boolean;
  verb: string;
  apiGroup: string;
  resource: string;
  subresource: string;
  namespace: string;
  path: string;
}

interface Subject {
  kind?: string;
  user?: { name?: string };
  group?: { name?: string };
  serviceAccount?: { namespace?: string; name?: string };
}

interface ResourceRule {
  verbs?: string[];
  apiGroups?: string[];
  resources?: string[];
  namespaces?: string[];
  clusterScope?: boolean;
}

interface NonResourceRule {
  verbs?: string[];
  nonResourceURLs?: string[];
}

interface PolicyRules {
  subjects?: Subject[];
  resourceRules?: ResourceRule[];
  nonResourceRules?: NonResourceRule[];
}

export interface FlowSchemaSpec {
  priorityLevelConfiguration?: { name?: string };
  matchingPrecedence?: number;
  distinguisherMethod?: { type?: string };
  rules?: PolicyRules[];
}

const SERVICE_ACCOUNT_PREFIX = "system:serviceaccount:";

const has = (list: readonly string[] | undefined, value: string) => list !== undefined && (list.includes("*") || list.includes(value));

function matchesSubject(request: RequestDigest, subject: Subject): boolean {
  switch (subject.kind) {
    case "User":
      return subject.user?.name === "*" || subject.user?.name === request.username;
    case "Group":
      return subject.group?.name === "*" || request.groups.includes(subject.group?.name ?? "");
    case "ServiceAccount": {
      if (!request.username.startsWith(SERVICE_ACCOUNT_PREFIX)) return false;
      const [namespace, name, ...rest] = request.username.slice(SERVICE_ACCOUNT_PREFIX.length).split(":");
      if (rest.length > 0 || name === undefined) return false;
      const account = subject.serviceAccount;
      return account?.namespace === namespace && (account.name === "*" || account.name === name);
    }
    default:
      return false;
  }
}

function matchesResourceRule(request: RequestDigest, rule: ResourceRule): boolean {
  if (!has(rule.verbs, request.verb) || !has(rule.apiGroups, request.apiGroup)) return false;
  const resource = request.subresource ? `${request.resource}/${request.subresource}` : request.resource;
  if (!has(rule.resources, resource)) return false;
  return request.namespace === "" ? rule.clusterScope === true : has(rule.namespaces, request.namespace);
}

/** "*", the exact path, or a "/prefix/*" pattern that covers the prefix and everything under it. */
function matchesNonResourceURL(pattern: string, path: string): boolean {
  if (pattern === "*" || pattern === path) return true;
  if (!pattern.endsWith("/*")) return false;
  const prefix = pattern.slice(0, -1);
  return path.startsWith(prefix) || path === prefix.slice(0, -1);
}

function matchesNonResourceRule(request: RequestDigest, rule: NonResourceRule): boolean {
  return has(rule.verbs, request.verb) && (rule.nonResourceURLs ?? []).some((pattern) => matchesNonResourceURL(pattern, request.path));
}

/** kube's matchesPolicyRule: a subject matches and, by the request's kind, a resource or non-resource rule does. */
export function matchesFlowSchema(request: RequestDigest, spec: FlowSchemaSpec): boolean {
  return (spec.rules ?? []).some((rules) => {
    if (!(rules.subjects ?? []).some((subject) => matchesSubject(request, subject))) return false;
    return request.isResourceRequest
      ? (rules.resourceRules ?? []).some((rule) => matchesResourceRule(request, rule))
      : (rules.nonResourceRules ?? []).some((rule) => matchesNonResourceRule(request, rule));
  });
}

/** kube's computeFlowDistinguisher. */
export function flowDistinguisher(request: RequestDigest, spec: FlowSchemaSpec): string {
  switch (spec.distinguisherMethod?.type) {
    case "ByUser":
      return request.username;
    case "ByNamespace":
      return request.namespace;
    default:
      return "";
  }
}

/** FlowSchemas in the order they are tried: by matchingPrecedence, then by name (kube's fsSeq sort). */
export function inMatchingOrder(flowSchemas: readonly KubeObject[]): KubeObject[] {
  const precedence = (schema: KubeObject) => (schema.spec as FlowSchemaSpec | undefined)?.matchingPrecedence ?? 1000;
  return [...flowSchemas].sort((a, b) =>
    precedence(a) - precedence(b) || compareByteOrder(String(a.metadata.name), String(b.metadata.name))
  );
}
