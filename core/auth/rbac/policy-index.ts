/**
 * The in-memory RBAC policy: roles by name and bindings by the subjects they name, kept current from watch
 * events. Answering who may do what costs one map lookup per user name and group, never a scan of the
 * store or of unrelated bindings (kube's DefaultRuleResolver over informer caches, indexed by subject).
 */
import type { KubeObject } from "../../api/types.ts";
import type { UserInfo } from "../user.ts";
import { type PolicyRule, type RoleRef, roleRefOf, rulesOf, type Subject, subjectsOf } from "./policy-types.ts";
import { describeSubject, type SubjectKey, subjectKey } from "./subjects.ts";

export type BindingKind = "ClusterRoleBinding" | "RoleBinding";

interface Binding {
  kind: BindingKind;
  namespace: string;
  name: string;
  roleRef: RoleRef;
  subjects: Subject[];
  /** Whom the binding applies to: one entry per distinct subject key, for the first subject with that key. */
  appliesTo: Applying[];
}

/** A binding as found under one of its subject keys, with the account of its rules for that subject. */
interface Applying {
  binding: Binding;
  key: SubjectKey;
  source: RuleSource;
}

/** Where a visited rule came from: its binding and subject, described (kube's ruleSource) when first asked. */
export interface RuleSource {
  describe(): string;
}

/** What `visitRulesFor` calls for each rule and each binding whose role cannot be had; false stops the walk. */
export interface RuleVisitor<Context> {
  rule(rule: PolicyRule, source: RuleSource, context: Context): boolean;
  error(message: string, context: Context): boolean;
}

export interface ResolvedRules {
  rules: PolicyRule[];
  errors: string[];
}

const NO_NAMESPACE = "";

function bindingId(kind: BindingKind, namespace: string, name: string): string {
  return `${kind}/${namespace}/${name}`;
}

/** The bindings of one namespace (the empty one for cluster role bindings) by the user and group names they name. */
interface NamespaceBindings {
  user: Map<string, Applying[]>;
  group: Map<string, Applying[]>;
}

const collectRules: RuleVisitor<ResolvedRules> = {
  rule(rule, _source, resolved) {
    resolved.rules.push(rule);
    return true;
  },
  error(message, resolved) {
    resolved.errors.push(message);
    return true;
  },
};

export class PolicyIndex {
  readonly #clusterRoles = new Map<string, PolicyRule[]>();
  /** Keyed `<namespace>/<name>`. */
  readonly #roles = new Map<string, PolicyRule[]>();
  readonly #bindings = new Map<string, Binding>();
  /** Looked up by the user's own strings, so a request's walk builds no key. */
  readonly #byNamespace = new Map<string, NamespaceBindings>();

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
    const binding: Binding = { kind, namespace, name, roleRef: roleRefOf(obj), subjects, appliesTo: [] };
    for (const subject of subjects) {
      const key = subjectKey(subject, namespace);
      if (key && !binding.appliesTo.some((entry) => entry.key.kind === key.kind && entry.key.name === key.name)) {
        binding.appliesTo.push({ binding, key, source: describedLazily(binding, subject) });
      }
    }
    this.#bindings.set(bindingId(kind, namespace, name), binding);
    let slots = this.#byNamespace.get(namespace);
    if (!slots) this.#byNamespace.set(namespace, slots = { user: new Map(), group: new Map() });
    for (const applying of binding.appliesTo) {
      const listed = slots[applying.key.kind].get(applying.key.name);
      if (listed) listed.push(applying);
      else slots[applying.key.kind].set(applying.key.name, [applying]);
    }
  }

  deleteBinding(kind: BindingKind, namespace: string, name: string): void {
    const id = bindingId(kind, namespace, name);
    const binding = this.#bindings.get(id);
    if (!binding) return;
    this.#bindings.delete(id);
    const slots = this.#byNamespace.get(namespace)!;
    for (const applying of binding.appliesTo) {
      const { key } = applying;
      const listed = slots[key.kind].get(key.name)!;
      listed.splice(listed.indexOf(applying), 1);
      if (listed.length === 0) slots[key.kind].delete(key.name);
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
   * Visits the rules of every binding that applies to the user (kube's DefaultRuleResolver.VisitRulesFor): cluster
   * role bindings, then the role bindings of `namespace` (none when it is empty); each binding once, under the first
   * of the user's name and groups it names, described by the first of its subjects that applies. Stops when the visitor answers false. Makes nothing per call.
   */
  visitRulesFor<Context>(user: UserInfo, namespace: string, visitor: RuleVisitor<Context>, context: Context): void {
    if (!this.#visitNamespace(NO_NAMESPACE, user, visitor, context)) return;
    if (namespace !== NO_NAMESPACE) this.#visitNamespace(namespace, user, visitor, context);
  }

  rulesFor(user: UserInfo, namespace: string): ResolvedRules {
    const resolved: ResolvedRules = { rules: [], errors: [] };
    this.visitRulesFor(user, namespace, collectRules, resolved);
    return resolved;
  }

  #visitNamespace<Context>(namespace: string, user: UserInfo, visitor: RuleVisitor<Context>, context: Context): boolean {
    const slots = this.#byNamespace.get(namespace);
    if (!slots) return true;
    const named = slots.user.get(user.username);
    if (named && !this.#visitBindings(named, -1, user, visitor, context)) return false;
    for (let index = 0; index < user.groups.length; index++) {
      const listed = slots.group.get(user.groups[index]!);
      if (listed && !this.#visitBindings(listed, index, user, visitor, context)) return false;
    }
    return true;
  }

  /** Bindings found under the user's name (group -1) or its group at `group`; those found earlier are skipped. */
  #visitBindings<Context>(
    found: Applying[],
    group: number,
    user: UserInfo,
    visitor: RuleVisitor<Context>,
    context: Context,
  ): boolean {
    for (let index = 0; index < found.length; index++) {
      const { binding } = found[index]!;
      if (group >= 0 && foundEarlier(binding, group, user)) continue;
      const { source } = firstApplying(binding, user, found[index]!);
      const rules = this.roleReferenceRules(binding.roleRef, binding.namespace);
      if ("error" in rules) {
        if (!visitor.error(rules.error, context)) return false;
        continue;
      }
      for (let rule = 0; rule < rules.length; rule++) {
        if (!visitor.rule(rules[rule]!, source, context)) return false;
      }
    }
    return true;
  }
}

/** Whether the binding names the user, or one of its groups before `group`, and so was visited already. */
function foundEarlier(binding: Binding, group: number, user: UserInfo): boolean {
  for (let index = 0; index < binding.appliesTo.length; index++) {
    const { key } = binding.appliesTo[index]!;
    if (key.kind === "user" ? key.name === user.username : user.groups.indexOf(key.name) < group && user.groups.includes(key.name)) {
      return true;
    }
  }
  return false;
}

/**
 * The entry of the binding's first subject, in the binding's own order, that names the user: the subject its
 * "allowed by" reason names (kube's appliesTo returns that subject's index). `fallback` is the entry it was found by.
 */
function firstApplying(binding: Binding, user: UserInfo, fallback: Applying): Applying {
  for (let index = 0; index < binding.appliesTo.length; index++) {
    const entry = binding.appliesTo[index]!;
    if (entry.key.kind === "user" ? entry.key.name === user.username : user.groups.includes(entry.key.name)) return entry;
  }
  return fallback;
}

/** The binding's account for `subject`, written when first asked (an allowed request's reason) and then kept. */
function describedLazily(binding: Binding, subject: Subject): RuleSource {
  let text: string | undefined;
  return { describe: () => text ??= describeBinding(binding, subject) };
}

/** kube's clusterRoleBindingDescriber / roleBindingDescriber. */
function describeBinding(binding: Binding, subject: Subject): string {
  const name = binding.kind === "RoleBinding" ? `${binding.name}/${binding.namespace}` : binding.name;
  const role = `${binding.roleRef.kind} ${JSON.stringify(binding.roleRef.name)}`;
  return `${binding.kind} ${JSON.stringify(name)} of ${role} to ${describeSubject(subject, binding.namespace)}`;
}
