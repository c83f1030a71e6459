/**
 * The RBAC authorizer (kube's plugin/pkg/auth/authorizer/rbac): Allow when a rule of a binding that applies to
 * the user matches; otherwise no opinion, with the resolution errors met on the way as the reason.
 */
import type { Attributes, AuthorizationResult, Authorizer, UserRules } from "../../../core/auth/authorizer.ts";
import type { PolicyIndex } from "../../../core/auth/rbac/policy-index.ts";
import { ruleAllows } from "../../../core/auth/rbac/rule-match.ts";
import type { UserInfo } from "../../../core/auth/user.ts";

/** kube's SystemPrivilegedGroup, allowed everything before any authorizer is asked. */
const PRIVILEGED_GROUP = "system:masters";
const PRIVILEGED_ALLOW: AuthorizationResult = { decision: "Allow" };

/** utilerrors.NewAggregate's text: one message alone, several deduplicated in brackets. */
function aggregate(errors: string[]): string {
  const unique = [...new Set(errors)];
  return unique.length === 1 ? unique[0] : `[${unique.join(", ")}]`;
}

export function rbacAuthorizer(index: PolicyIndex): Authorizer {
  return {
    // The index is in memory: a decision needs no waiting, so it is answered as a plain value.
    authorize(a: Attributes): AuthorizationResult {
      if (a.user.groups.includes(PRIVILEGED_GROUP)) return PRIVILEGED_ALLOW;
      const allowed: { by?: () => string } = {};
      const errors: string[] = [];
      index.visitRulesFor(a.user, a.namespace, (visit) => {
        if ("error" in visit) {
          errors.push(visit.error);
          return true;
        }
        if (!ruleAllows(a, visit.rule)) return true;
        allowed.by = visit.describe;
        return false;
      });
      if (allowed.by) return { decision: "Allow", reason: `RBAC: allowed by ${allowed.by()}` };
      return { decision: "NoOpinion", reason: errors.length > 0 ? `RBAC: ${aggregate(errors)}` : undefined };
    },
    rulesFor(user: UserInfo, namespace: string): Promise<UserRules> {
      const { rules, errors } = index.rulesFor(user, namespace);
      return Promise.resolve({ rules, incomplete: false, errors });
    },
  };
}
