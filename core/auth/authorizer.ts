/**
 * The authorizer contract and its ordered union (k8s.io/apiserver pkg/authorization/union): the first
 * authorizer with an opinion decides; when none has one the request is denied (spec 5.10).
 */
import { newForbidden, type StatusError } from "../api/errors.ts";
import type { PolicyRule } from "./rbac/policy-types.ts";
import type { UserInfo } from "./user.ts";
import { firstDecision, type UnionWalk } from "./_first-decision.ts";

/** Request attributes as kube's authorizer.Attributes. */
export interface Attributes {
  user: UserInfo;
  verb: string;
  isResourceRequest: boolean;
  /** For non-resource requests. */
  path: string;
  apiGroup: string;
  apiVersion: string;
  namespace: string;
  resource: string;
  subresource: string;
  name: string;
}

export type Decision = "Allow" | "Deny" | "NoOpinion";

export interface AuthorizationResult {
  decision: Decision;
  reason?: string;
}

/** What a user may do in a namespace, as far as one authorizer can tell (kube's authorizer.RuleResolver). */
export interface UserRules {
  rules: PolicyRule[];
  /** True when the authorizer may allow more than `rules` lists (or cannot list rules at all). */
  incomplete: boolean;
  errors: string[];
}

export interface Authorizer {
  /** A plain value when the decision needs no waiting (AlwaysAllow, rules already at hand). */
  authorize(attributes: Attributes): AuthorizationResult | Promise<AuthorizationResult>;
  /** Optional: the rules behind the decisions, for SelfSubjectRulesReview and escalation checks. */
  rulesFor?(user: UserInfo, namespace: string): Promise<UserRules>;
}

const UNLISTABLE: UserRules = { rules: [], incomplete: true, errors: [] };

/** kube's union of rule resolvers: all rules together; incomplete when any part is (or cannot list rules). */
async function unionRulesFor(authorizers: Authorizer[], user: UserInfo, namespace: string): Promise<UserRules> {
  const parts = await Promise.all(authorizers.map((a) => a.rulesFor?.(user, namespace) ?? UNLISTABLE));
  return {
    rules: parts.flatMap((p) => p.rules),
    incomplete: parts.length === 0 || parts.some((p) => p.incomplete),
    errors: parts.flatMap((p) => p.errors),
  };
}

const AUTHORIZE_WALK: UnionWalk<Authorizer, Attributes, AuthorizationResult> = {
  ask: (authorizer, attributes) => authorizer.authorize(attributes),
  decides: hasOpinion,
  undecided: noOpinion,
};

export function unionAuthorizer(authorizers: Authorizer[]): Authorizer {
  return {
    authorize: (attributes) => firstDecision(authorizers, AUTHORIZE_WALK, attributes),
    rulesFor: (user, namespace) => unionRulesFor(authorizers, user, namespace),
  };
}

/** A member's decision stands unless it has no opinion; its reason is kept for the union's NoOpinion. */
function hasOpinion(result: AuthorizationResult, reasons: string[]): boolean {
  if (result.decision !== "NoOpinion") return true;
  if (result.reason) reasons.push(result.reason);
  return false;
}

function noOpinion(reasons: string[]): AuthorizationResult {
  return { decision: "NoOpinion", reason: reasons.join("\n") || undefined };
}

/** kube's responsewriters.forbiddenMessage. */
function forbiddenMessage(a: Attributes): string {
  const user = JSON.stringify(a.user.username);
  if (!a.isResourceRequest) return `User ${user} cannot ${a.verb} path ${JSON.stringify(a.path)}`;
  const resource = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
  const where = a.namespace ? `in the namespace ${JSON.stringify(a.namespace)}` : "at the cluster scope";
  return `User ${user} cannot ${a.verb} resource ${JSON.stringify(resource)} in API group ${JSON.stringify(a.apiGroup)} ${where}`;
}

/** The 403 kube writes for a denied request: `pods "x" is forbidden: User "u" cannot get resource ...`. */
export function newAuthorizationForbidden(a: Attributes, reason?: string): StatusError {
  const detail = reason ? `${forbiddenMessage(a)}: ${reason}` : forbiddenMessage(a);
  if (!a.isResourceRequest || a.resource === "") return newForbidden(`forbidden: ${detail}`, {});
  const qualified = a.apiGroup ? `${a.resource}.${a.apiGroup}` : a.resource;
  const message = a.name ? `${qualified} ${JSON.stringify(a.name)} is forbidden: ${detail}` : `${qualified} is forbidden: ${detail}`;
  return newForbidden(message, { name: a.name || undefined, group: a.apiGroup || undefined, kind: a.resource });
}
