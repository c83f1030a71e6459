/**
 * The RBAC authorizer (kube's plugin/pkg/auth/authorizer/rbac): Allow when a rule of a binding that applies to
 * the user matches; otherwise no opinion, with the resolution errors met on the way as the reason.
 */
import type { Attributes, AuthorizationResult, Authorizer, UserRules } from "../../../core/auth/authorizer.ts";
import type { PolicyIndex, RuleSource, RuleVisitor } from "../../../core/auth/rbac/policy-index.ts";
import { ruleAllows } from "../../../core/auth/rbac/rule-match.ts";
import type { UserInfo } from "../../../core/auth/user.ts";

/** utilerrors.NewAggregate's text: one message alone, several deduplicated in brackets. */
function aggregate(errors: string[]): string {
  const unique = [...new Set(errors)];
  return unique.length === 1 ? unique[0] : `[${unique.join(", ")}]`;
}

/** One decision's walk: the request, the first rule's source that allowed it, the resolution errors met. */
interface Decision {
  attributes: Attributes;
  allowedBy?: RuleSource;
  errors?: string[];
}

/** kube's authorizingVisitor: stops at the first rule that allows the request, keeps errors until then. */
const authorizingVisitor: RuleVisitor<Decision> = {
  rule(rule, source, decision) {
    if (!ruleAllows(decision.attributes, rule)) return true;
    decision.allowedBy = source;
    return false;
  },
  error(message, decision) {
    (decision.errors ??= []).push(message);
    return true;
  },
};

/** The Allow each rule source gives, made once: a source is kept with its binding until the binding changes. */
const allowedResults = new WeakMap<RuleSource, AuthorizationResult>();

function allowedBy(source: RuleSource): AuthorizationResult {
  let result = allowedResults.get(source);
  if (!result) allowedResults.set(source, result = Object.freeze({ decision: "Allow", reason: `RBAC: allowed by ${source.describe()}` }));
  return result;
}

export function rbacAuthorizer(index: PolicyIndex): Authorizer {
  return {
    // The index is in memory: a decision needs no waiting, so it is answered as a plain value.
    authorize(a: Attributes): AuthorizationResult {
      const decision: Decision = { attributes: a };
      index.visitRulesFor(a.user, a.namespace, authorizingVisitor, decision);
      if (decision.allowedBy) return allowedBy(decision.allowedBy);
      return { decision: "NoOpinion", reason: decision.errors ? `RBAC: ${aggregate(decision.errors)}` : undefined };
    },
    rulesFor(user: UserInfo, namespace: string): Promise<UserRules> {
      const { rules, errors } = index.rulesFor(user, namespace);
      return Promise.resolve({ rules, incomplete: false, errors });
    },
  };
}
