import { expect, test } from "bun:test";
import type { KubeObject } from "../api/types.ts";
import type { ResourceType } from "../api/resource-type.ts";
import type { WriteAttempt } from "./write-guard.ts";
import type { Attributes, Authorizer } from "../auth/authorizer.ts";
import type { UserInfo } from "../auth/user.ts";
import { binding, clusterRole, role, user } from "../auth/rbac/testing.ts";
import { createEscalationChecks } from "./rbac-escalation.ts";
import type { PolicyRule } from "../auth/rbac/policy-types.ts";

const podsGet: PolicyRule = { apiGroups: [""], resources: ["pods"], verbs: ["get"] };
const podsCreate: PolicyRule = { apiGroups: [""], resources: ["pods"], verbs: ["create"] };
const bob: UserInfo = { username: "bob", groups: ["system:authenticated"] };

/** bob holds podsGet; `allowed` lists the extra requests (verb/resource/name) the chain allows. */
function checks(allowed: string[] = [], roles: Record<string, KubeObject> = {}) {
  const authorizer: Authorizer = {
    authorize: (a: Attributes) =>
      Promise.resolve({ decision: allowed.includes(`${a.verb}/${a.resource}/${a.name}`) ? "Allow" : "NoOpinion" }),
    rulesFor: () => Promise.resolve({ rules: [podsGet], incomplete: false, errors: [] }),
  };
  return createEscalationChecks(authorizer, (ref) => Promise.resolve(roles[ref.name] ?? null));
}

function attempt(resource: string, object: KubeObject, extra: Partial<WriteAttempt> = {}): WriteAttempt {
  return {
    operation: "create",
    user: bob,
    type: { group: "rbac.authorization.k8s.io", resource } as ResourceType,
    namespace: "default",
    object,
    oldObject: null,
    dryRun: false,
    ...extra,
  };
}

test("a role with only rules the user holds may be written; one with more is refused with kube's message", async () => {
  await checks().guardRole(attempt("roles", role("default", "r", [podsGet])));
  const refused = checks().guardRole(attempt("roles", role("default", "r", [podsGet, podsCreate])));
  await expect(refused).rejects.toMatchObject({
    code: 403,
    reason: "Forbidden",
    message:
      'roles.rbac.authorization.k8s.io "r" is forbidden: user "bob" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n' +
      '{APIGroups:[""], Resources:["pods"], Verbs:["create"]}',
  });
});

test("the escalate verb, or system:masters, lets a user write a role with rules they lack", async () => {
  await checks(["escalate/roles/"]).guardRole(attempt("roles", role("default", "r", [podsCreate])));
  await checks().guardRole(
    attempt("roles", role("default", "r", [podsCreate]), { user: { username: "admin", groups: ["system:masters"] } }),
  );
});

test("an aggregationRule needs every permission there is", async () => {
  const aggregated = { ...clusterRole("agg", []), aggregationRule: { clusterRoleSelectors: [] } };
  await expect(checks().guardRole(attempt("clusterroles", aggregated, { namespace: "" }))).rejects.toMatchObject({
    message: 'clusterroles.rbac.authorization.k8s.io "agg" is forbidden: must have cluster-admin privileges to use the aggregationRule',
  });
});

test("a binding needs the referenced role's rules or the bind verb on that role's name", async () => {
  const roles = { creator: clusterRole("creator", [podsCreate]), getter: clusterRole("getter", [podsGet]) };
  const bindTo = (name: string) => attempt("rolebindings", binding("b", { kind: "ClusterRole", name }, [user("eve")], "default"));
  await checks([], roles).guardBinding(bindTo("getter"));
  await expect(checks([], roles).guardBinding(bindTo("creator"))).rejects.toMatchObject({ code: 403 });
  await checks(["bind/clusterroles/creator"], roles).guardBinding(bindTo("creator"));
  await expect(checks(["bind/clusterroles/other"], roles).guardBinding(bindTo("creator"))).rejects.toMatchObject({ code: 403 });
  await expect(checks([], roles).guardBinding(bindTo("missing"))).rejects.toMatchObject({ code: 404 });
});

test("an update that changes only finalizers or owner references is not checked", async () => {
  const old = role("default", "r", [podsCreate]);
  const next = { ...old, metadata: { ...old.metadata, finalizers: ["x"] } };
  await checks().guardRole(attempt("roles", next, { operation: "update", oldObject: old }));
  const widened = { ...old, rules: [podsCreate, podsGet], metadata: { ...old.metadata } };
  await expect(checks().guardRole(attempt("roles", widened, { operation: "update", oldObject: old }))).rejects.toMatchObject({ code: 403 });
});
