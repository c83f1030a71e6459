/**
 * kube-apiserver 1.26's default ClusterRoleBindings (bootstrappolicy ClusterRoleBindings()) and the objects
 * both lists become: labelled `kubernetes.io/bootstrapping: rbac-defaults` and annotated autoupdate "true".
 */
import type { KubeObject } from "../../api/types.ts";
import { BOOTSTRAP_CLUSTER_ROLES } from "./bootstrap-roles.ts";
import { CONTROLLER_ROLE_PREFIX, CONTROLLER_ROLES, NAMESPACED_BOOTSTRAP_BINDINGS, NAMESPACED_BOOTSTRAP_ROLES } from "./controller-roles.ts";
import { AUTOUPDATE_ANNOTATION, BOOTSTRAPPING_LABEL, RBAC_GROUP, type Subject } from "./policy-types.ts";

const API_VERSION = `${RBAC_GROUP}/v1`;

const groups = (...names: string[]): Subject[] => names.map((name) => ({ apiGroup: RBAC_GROUP, kind: "Group", name }));
const users = (...names: string[]): Subject[] => names.map((name) => ({ apiGroup: RBAC_GROUP, kind: "User", name }));

/** Binding name = role name, as kube's NewClusterBinding. */
const BOOTSTRAP_CLUSTER_ROLE_BINDINGS: { role: string; subjects: Subject[] }[] = [
  { role: "cluster-admin", subjects: groups("system:masters") },
  { role: "system:monitoring", subjects: groups("system:monitoring") },
  { role: "system:discovery", subjects: groups("system:authenticated") },
  { role: "system:basic-user", subjects: groups("system:authenticated") },
  { role: "system:public-info-viewer", subjects: groups("system:authenticated", "system:unauthenticated") },
  { role: "system:node-proxier", subjects: users("system:kube-proxy") },
  { role: "system:kube-controller-manager", subjects: users("system:kube-controller-manager") },
  { role: "system:kube-dns", subjects: [{ kind: "ServiceAccount", name: "kube-dns", namespace: "kube-system" }] },
  { role: "system:kube-scheduler", subjects: users("system:kube-scheduler") },
  { role: "system:volume-scheduler", subjects: users("system:kube-scheduler") },
  // Bound through the Node authorizer since 1.8; the binding stays, without subjects.
  { role: "system:node", subjects: [] },
  { role: "system:service-account-issuer-discovery", subjects: groups("system:serviceaccounts") },
];

function bootstrapMeta(name: string, labels: Record<string, string> = {}) {
  return { name, labels: { [BOOTSTRAPPING_LABEL]: "rbac-defaults", ...labels }, annotations: { [AUTOUPDATE_ANNOTATION]: "true" } };
}

const CONTROLLER_CLUSTER_ROLES = Object.entries(CONTROLLER_ROLES).map(([account, rules]) => ({
  name: `${CONTROLLER_ROLE_PREFIX}${account}`,
  rules,
}));

/** kube's addControllerRole: each controller role bound to its service account in kube-system. */
const CONTROLLER_CLUSTER_ROLE_BINDINGS = Object.keys(CONTROLLER_ROLES).map((account) => ({
  role: `${CONTROLLER_ROLE_PREFIX}${account}`,
  subjects: [{ kind: "ServiceAccount", name: account, namespace: "kube-system" }] as Subject[],
}));

export function bootstrapClusterRoles(): KubeObject[] {
  return [...BOOTSTRAP_CLUSTER_ROLES, ...CONTROLLER_CLUSTER_ROLES].map((role: typeof BOOTSTRAP_CLUSTER_ROLES[number]) => {
    const obj: KubeObject = {
      apiVersion: API_VERSION,
      kind: "ClusterRole",
      metadata: bootstrapMeta(role.name, role.labels),
      rules: role.rules,
    };
    if (role.aggregatesFrom) {
      obj.aggregationRule = {
        clusterRoleSelectors: [{ matchLabels: { [`rbac.authorization.k8s.io/aggregate-to-${role.aggregatesFrom}`]: "true" } }],
      };
    }
    return obj;
  });
}

export function bootstrapClusterRoleBindings(): KubeObject[] {
  return [...BOOTSTRAP_CLUSTER_ROLE_BINDINGS, ...CONTROLLER_CLUSTER_ROLE_BINDINGS].map(({ role, subjects }) => {
    const obj: KubeObject = {
      apiVersion: API_VERSION,
      kind: "ClusterRoleBinding",
      metadata: bootstrapMeta(role),
      roleRef: { apiGroup: RBAC_GROUP, kind: "ClusterRole", name: role },
    };
    if (subjects.length > 0) obj.subjects = subjects;
    return obj;
  });
}

/** namespace_policy.go's Roles in kube-system and kube-public. */
export function bootstrapRoles(): KubeObject[] {
  return NAMESPACED_BOOTSTRAP_ROLES.map(({ namespace, name, rules }) => ({
    apiVersion: API_VERSION,
    kind: "Role",
    metadata: { ...bootstrapMeta(name), namespace },
    rules,
  }));
}

/** namespace_policy.go's RoleBindings. */
export function bootstrapRoleBindings(): KubeObject[] {
  return NAMESPACED_BOOTSTRAP_BINDINGS.map(({ namespace, name, role, subjects }) => ({
    apiVersion: API_VERSION,
    kind: "RoleBinding",
    metadata: { ...bootstrapMeta(name), namespace },
    roleRef: { apiGroup: RBAC_GROUP, kind: "Role", name: role },
    subjects: subjects.map((subject) => (subject.kind === "User" ? { apiGroup: RBAC_GROUP, ...subject } : subject)),
  }));
}
