/**
 * Privilege-escalation prevention for RBAC writes (kube's pkg/registry/rbac/<kind>/policybased): a user may write a
 * role only with rules they already hold, or with the `escalate` verb on it; a binding only to a role whose
 * rules they hold, or with the `bind` verb on it. system:masters may do anything.
 */
import { isDeepStrictEqual } from "node:util";
import { newForbidden, newNotFound, qualifiedName, type StatusError } from "../api/errors.ts";
import type { KubeObject } from "../api/types.ts";
import type { WriteAttempt, WriteGuards } from "./write-guard.ts";
import type { Attributes, Authorizer } from "../auth/authorizer.ts";
import type { ReadOnlyClient } from "../api/client.ts";
import type { UserInfo } from "../auth/user.ts";
import { compactRule, uncoveredRules } from "../auth/rbac/covers.ts";
import { aggregationSelectorsOf, type PolicyRule, RBAC_GROUP, type RoleRef, roleRefOf, rulesOf } from "../auth/rbac/policy-types.ts";

/** Reads a Role or ClusterRole from the store; null when it does not exist. */
export type RoleReader = (ref: RoleRef, namespace: string) => Promise<KubeObject | null>;

const PRIVILEGED_GROUP = "system:masters";
const FULL_AUTHORITY: PolicyRule[] = [{ apiGroups: ["*"], resources: ["*"], verbs: ["*"] }, { nonResourceURLs: ["*"], verbs: ["*"] }];
const ROLE_RESOURCES: Record<string, string> = { ClusterRole: "clusterroles", Role: "roles" };

/** kube's IsOnlyMutatingGCFields: an update touching only owner references and finalizers needs no check. */
function onlyGcFieldsChanged(attempt: WriteAttempt): boolean {
  if (!attempt.oldObject) return false;
  const strip = (obj: KubeObject) => {
    const { ownerReferences: _o, finalizers: _f, managedFields: _m, selfLink: _s, resourceVersion: _r, generation: _g, ...metadata } =
      obj.metadata;
    return { ...obj, metadata };
  };
  return isDeepStrictEqual(strip(attempt.object), strip(attempt.oldObject));
}

function forbidden(attempt: WriteAttempt, why: string): StatusError {
  const resource = { group: attempt.type.group, resource: attempt.type.resource };
  const name = String(attempt.object.metadata.name ?? "");
  return newForbidden(`${qualifiedName(resource)} ${JSON.stringify(name)} is forbidden: ${why}`, {
    name,
    group: resource.group,
    kind: resource.resource,
  });
}

function goStrings(values: string[]): string {
  return `[${values.map((v) => JSON.stringify(v)).join(" ")}]`;
}

export function createEscalationChecks(authorizer: Authorizer, readRole: RoleReader) {
  const allows = async (
    user: UserInfo,
    attributes: Omit<Attributes, "user" | "isResourceRequest" | "path" | "apiVersion" | "subresource">,
  ) =>
    (await authorizer.authorize({ ...attributes, user, isResourceRequest: true, path: "", apiVersion: "*", subresource: "" })).decision ===
      "Allow";

  /** kube's ConfirmNoEscalation: the message lists, sorted, every rule part the user lacks. */
  const confirmHeld = async (attempt: WriteAttempt, rules: PolicyRule[]): Promise<void> => {
    const owned = (await authorizer.rulesFor?.(attempt.user, attempt.namespace)) ?? { rules: [], errors: [] };
    const missing = uncoveredRules(owned.rules, rules);
    if (missing.length === 0) return;
    const { username, groups } = attempt.user;
    let why =
      `user ${JSON.stringify(username)} (groups=${goStrings(groups)}) is attempting to grant RBAC permissions not currently held:\n` +
      [...new Set(missing.map(compactRule))].sort().join("\n");
    if (owned.errors.length > 0) why += `; resolution errors: [${owned.errors.join(" ")}]`;
    throw forbidden(attempt, why);
  };

  const guardRole = async (attempt: WriteAttempt): Promise<void> => {
    if (attempt.user.groups.includes(PRIVILEGED_GROUP) || onlyGcFieldsChanged(attempt)) return;
    const name = attempt.operation === "update" ? String(attempt.object.metadata.name) : "";
    if (
      await allows(attempt.user, {
        verb: "escalate",
        apiGroup: RBAC_GROUP,
        resource: attempt.type.resource,
        namespace: attempt.namespace,
        name,
      })
    ) return;
    await confirmHeld(attempt, rulesOf(attempt.object));
    if (aggregationSelectorsOf(attempt.object) === null) return;
    // An aggregation rule can gather anything, so setting one takes every permission there is.
    await confirmHeld(attempt, FULL_AUTHORITY).catch(() => {
      throw forbidden(attempt, "must have cluster-admin privileges to use the aggregationRule");
    });
  };

  const guardBinding = async (attempt: WriteAttempt): Promise<void> => {
    if (attempt.user.groups.includes(PRIVILEGED_GROUP) || onlyGcFieldsChanged(attempt)) return;
    const ref = roleRefOf(attempt.object);
    const roleResource = ROLE_RESOURCES[ref.kind];
    if (
      roleResource &&
      await allows(attempt.user, {
        verb: "bind",
        apiGroup: ref.apiGroup,
        resource: roleResource,
        namespace: attempt.namespace,
        name: ref.name,
      })
    ) return;
    const role = roleResource ? await readRole(ref, attempt.namespace) : null;
    if (!role) throw newNotFound({ group: RBAC_GROUP, resource: roleResource ?? "roles" }, ref.name);
    await confirmHeld(attempt, rulesOf(role));
  };

  return { guardRole, guardBinding };
}

/** Registers the checks for the four RBAC resources. */
export function registerEscalationGuards(guards: WriteGuards, authorizer: Authorizer, readRole: RoleReader): void {
  const { guardRole, guardBinding } = createEscalationChecks(authorizer, readRole);
  guards.register(RBAC_GROUP, "roles", guardRole);
  guards.register(RBAC_GROUP, "clusterroles", guardRole);
  guards.register(RBAC_GROUP, "rolebindings", guardBinding);
  guards.register(RBAC_GROUP, "clusterrolebindings", guardBinding);
}

/** Reads referenced roles through the read-only client. */
export function clientRoleReader(client: ReadOnlyClient): RoleReader {
  return (ref, namespace) =>
    client.get({
      group: RBAC_GROUP,
      version: "v1",
      resource: ROLE_RESOURCES[ref.kind],
      namespace: ref.kind === "Role" ? namespace : undefined,
      name: ref.name,
    });
}
