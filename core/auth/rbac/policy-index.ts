/**
 * The in-memory RBAC policy: roles by name and bindings by the subjects they name, kept current from watch
 * events. Answering who may do what costs one map lookup per user name and group, never a scan of the
 * store or of unrelated bindings (kube's DefaultRuleResolver over informer caches, indexed by subject).
 */
import type { KubeObject } from "../../api/types.ts";
import type { UserInfo } from "../user.ts";
import { type PolicyRule, type RoleRef, roleRefOf, rulesOf, type Subject, subjectsOf } from "./policy-types.ts";
import { describeSubject, subjectKey, userKeys } from "./subjects.ts";

export type BindingKind = "ClusterRoleBinding" | "RoleBinding";

interface Binding {
  kind: BindingKind;
  namespace: string;
  name: string;
  roleRef: RoleRef;
  subjects: Subject[];
  keys: string[];
}

/** One rule with a lazily written account of where it came from, or the reason a binding gave none. */
export type RuleVisit = { rule: PolicyRule; describe: () => string } | { error: string };

export interface ResolvedRules {
  rules: PolicyRule[];
  errors: string[];
}

const NO_NAMESPACE = "";

function bindingId(kind: BindingKind, namespace: string, name: string): string {
  return `${kind}/${namespace}/${name}`;
}

export class PolicyIndex {
  readonly #clusterRoles = new Map<string, PolicyRule[]>();
  /** Keyed `<namespace>/<name>`. */
  readonly #roles = new Map<string, PolicyRule[]>();
  readonly #bindings = new Map<string, Binding>();
  /** `<namespace>\0<subject key>` → binding ids; cluster role bindings use the empty namespace. */
  readonly #bySubject = new Map<string, Set<string>>();

  setClusterRole(obj: KubeObject): void {
    this.#clusterRoles.set(String(obj.metadata.name), rulesOf(obj));
  }

  deleteClusterRole(name: string): void {
    this.#clusterRoles.delete(name);
  }

  setRole(obj: KubeObject): void {
    this.#roles.set(`${obj.metadata.namespace}/${obj.metadata.name}`, rulesOf(obj));
  }

  deleteRole(namespace: string, name: string): void {
    this.#roles.delete(`${namespace}/${name}`);
  }

  setBinding(kind: BindingKind, obj: KubeObject): void {
    const namespace = kind === "RoleBinding" ? String(obj.metadata.namespace ?? "") : NO_NAMESPACE;
    const name = String(obj.metadata.name);
    this.deleteBinding(kind, namespace, name);
    const subjects = subjectsOf(obj);
    const keys = [...new Set(subjects.map((s) => subjectKey(s, namespace)).filter((k): k is string => k !== null))];
    const id = bindingId(kind, namespace, name);
    this.#bindings.set(id, { kind, namespace, name, roleRef: roleRefOf(obj), subjects, keys });
    for (const key of keys) {
      const slot = `${namespace}\0${key}`;
      let ids = this.#bySubject.get(slot);
      if (!ids) this.#bySubject.set(slot, ids = new Set());
      ids.add(id);
    }
  }

  deleteBinding(kind: BindingKind, namespace: string, name: string): void {
    const id = bindingId(kind, namespace, name);
    const binding = this.#bindings.get(id);
    if (!binding) return;
    this.#bindings.delete(id);
    for (const key of binding.keys) {
      const slot = `${namespace}\0${key}`;
      const ids = this.#bySubject.get(slot);
      ids?.delete(id);
      if (ids?.size === 0) this.#bySubject.delete(slot);
    }
  }

  /** The rules a role reference grants, or kube's lister "not found" text. */
  roleReferenceRules(ref: RoleRef, bindingNamespace: string): PolicyRule[] | { error: string } {
    if (ref.kind === "ClusterRole") {
      return this.#clusterRoles.get(ref.name) ?? { error: `clusterrole.rbac.authorization.k8s.io ${JSON.stringify(ref.name)} not found` };
    }
    if (ref.kind === "Role") {
      return this.#roles.get(`${bindingNamespace}/${ref.name}`) ??
        { error: `role.rbac.authorization.k8s.io ${JSON.stringify(ref.name)} not found` };
    }
    return { error: `unsupported role reference kind: ${JSON.stringify(ref.kind)}` };
  }

  /**
   * Visits the rules of every binding that applies to the user: cluster role bindings, then the role bindings
   * of `namespace` (none when it is empty). Stops when `visit` answers false.
   */
  visitRulesFor(user: UserInfo, namespace: string, visit: (v: RuleVisit) => boolean): void {
    const keys = userKeys(user);
    const namespaces = namespace === NO_NAMESPACE ? [NO_NAMESPACE] : [NO_NAMESPACE, namespace];
    for (const ns of namespaces) {
      const seen = new Set<string>();
      for (const key of keys) {
        for (const id of this.#bySubject.get(`${ns}\0${key}`) ?? []) {
          if (seen.has(id)) continue;
          seen.add(id);
          if (!this.#visitBinding(this.#bindings.get(id)!, key, visit)) return;
        }
      }
    }
  }

  rulesFor(user: UserInfo, namespace: string): ResolvedRules {
    const resolved: ResolvedRules = { rules: [], errors: [] };
    this.visitRulesFor(user, namespace, (v) => {
      if ("error" in v) resolved.errors.push(v.error);
      else resolved.rules.push(v.rule);
      return true;
    });
    return resolved;
  }

  #visitBinding(binding: Binding, matchedKey: string, visit: (v: RuleVisit) => boolean): boolean {
    const rules = this.roleReferenceRules(binding.roleRef, binding.namespace);
    if ("error" in rules) return visit(rules);
    const subject = binding.subjects.find((s) => subjectKey(s, binding.namespace) === matchedKey)!;
    const describe = () => describeBinding(binding, subject);
    return rules.every((rule) => visit({ rule, describe }));
  }
}

/** kube's clusterRoleBindingDescriber / roleBindingDescriber. */
function describeBinding(binding: Binding, subject: Subject): string {
  const name = binding.kind === "RoleBinding" ? `${binding.name}/${binding.namespace}` : binding.name;
  const role = `${binding.roleRef.kind} ${JSON.stringify(binding.roleRef.name)}`;
  return `${binding.kind} ${JSON.stringify(name)} of ${role} to ${describeSubject(subject, binding.namespace)}`;
}
