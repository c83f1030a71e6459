/**
 * kube-apiserver 1.26's default Roles and RoleBindings in kube-system and kube-public (bootstrappolicy
 * NamespaceRoles() and NamespaceRoleBindings()), as facts. extension-apiserver-authentication-reader is what
 * aggregated servers bind to read the extension-apiserver-authentication ConfigMap.
 */
import type { KubeObject } from "../../api/types.ts";
import { AUTOUPDATE_ANNOTATION, BOOTSTRAPPING_LABEL, RBAC_GROUP, type PolicyRule, type Subject } from "./policy-types.ts";

const API_VERSION = `${RBAC_GROUP}/v1`;
const CONTROLLER_PREFIX = "system:controller:";
const READ = ["get", "list", "watch"];

const rule = (verbs: string[], apiGroups: string[], resources: string[], resourceNames?: string[]): PolicyRule =>
  resourceNames ? { apiGroups, resources, resourceNames, verbs } : { apiGroups, resources, verbs };
const eventWriter = rule(["create", "update", "patch"], ["", "events.k8s.io"], ["events"]);
const user = (name: string): Subject => ({ apiGroup: RBAC_GROUP, kind: "User", name });
const serviceAccount = (name: string): Subject => ({ kind: "ServiceAccount", name, namespace: "kube-system" });

const ROLES: { namespace: string; name: string; rules: PolicyRule[] }[] = [
  { namespace: "kube-system", name: "extension-apiserver-authentication-reader", rules: [rule(READ, [""], ["configmaps"], ["extension-apiserver-authentication"])] },
  { namespace: "kube-system", name: `${CONTROLLER_PREFIX}bootstrap-signer`, rules: [rule(READ, [""], ["secrets"])] },
  { namespace: "kube-system", name: `${CONTROLLER_PREFIX}cloud-provider`, rules: [rule(["create", "get", "list", "watch"], [""], ["configmaps"])] },
  { namespace: "kube-system", name: `${CONTROLLER_PREFIX}token-cleaner`, rules: [rule(["get", "list", "watch", "delete"], [""], ["secrets"]), eventWriter] },
  {
    namespace: "kube-system",
    name: "system::leader-locking-kube-controller-manager",
    rules: [
      rule(["watch"], [""], ["configmaps"]),
      rule(["get", "update"], [""], ["configmaps"], ["kube-controller-manager"]),
      rule(["get", "watch", "list", "create", "update"], ["coordination.k8s.io"], ["leases"]),
    ],
  },
  {
    namespace: "kube-system",
    name: "system::leader-locking-kube-scheduler",
    rules: [rule(["watch"], [""], ["configmaps"]), rule(["get", "update"], [""], ["configmaps"], ["kube-scheduler"])],
  },
  {
    namespace: "kube-public",
    name: `${CONTROLLER_PREFIX}bootstrap-signer`,
    rules: [rule(READ, [""], ["configmaps"]), rule(["update"], [""], ["configmaps"], ["cluster-info"]), eventWriter],
  },
];

/** Binding name = role name, except where kube renames it. */
const BINDINGS: { namespace: string; name?: string; role: string; subjects: Subject[] }[] = [
  {
    namespace: "kube-system", name: "system::extension-apiserver-authentication-reader", role: "extension-apiserver-authentication-reader",
    subjects: [user("system:kube-controller-manager"), user("system:kube-scheduler")],
  },
  {
    namespace: "kube-system", role: "system::leader-locking-kube-controller-manager",
    subjects: [user("system:kube-controller-manager"), serviceAccount("kube-controller-manager"), serviceAccount("leader-election-controller")],
  },
  { namespace: "kube-system", role: "system::leader-locking-kube-scheduler", subjects: [user("system:kube-scheduler"), serviceAccount("kube-scheduler")] },
  { namespace: "kube-system", role: `${CONTROLLER_PREFIX}bootstrap-signer`, subjects: [serviceAccount("bootstrap-signer")] },
  { namespace: "kube-system", role: `${CONTROLLER_PREFIX}cloud-provider`, subjects: [serviceAccount("cloud-provider")] },
  { namespace: "kube-system", role: `${CONTROLLER_PREFIX}token-cleaner`, subjects: [serviceAccount("token-cleaner")] },
  { namespace: "kube-public", role: `${CONTROLLER_PREFIX}bootstrap-signer`, subjects: [serviceAccount("bootstrap-signer")] },
];

function bootstrapMeta(namespace: string, name: string) {
  return { name, namespace, labels: { [BOOTSTRAPPING_LABEL]: "rbac-defaults" }, annotations: { [AUTOUPDATE_ANNOTATION]: "true" } };
}

export function bootstrapRoles(): KubeObject[] {
  return ROLES.map(({ namespace, name, rules }) => ({ apiVersion: API_VERSION, kind: "Role", metadata: bootstrapMeta(namespace, name), rules }));
}

export function bootstrapRoleBindings(): KubeObject[] {
  return BINDINGS.map(({ namespace, name, role, subjects }) => ({
    apiVersion: API_VERSION,
    kind: "RoleBinding",
    metadata: bootstrapMeta(namespace, name ?? role),
    roleRef: { apiGroup: RBAC_GROUP, kind: "Role", name: role },
    subjects,
  }));
}
