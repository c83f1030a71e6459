/** Builders of RBAC objects and request attributes for the rbac tests. */
import type { KubeObject } from "../../api/types.ts";
import type { Attributes } from "../authorizer.ts";
import type { PolicyRule, Subject } from "./policy-types.ts";

export function clusterRole(name: string, rules: PolicyRule[], labels?: Record<string, string>): KubeObject {
  return { apiVersion: "rbac.authorization.k8s.io/v1", kind: "ClusterRole", metadata: { name, labels }, rules };
}

export function role(namespace: string, name: string, rules: PolicyRule[]): KubeObject {
  return { apiVersion: "rbac.authorization.k8s.io/v1", kind: "Role", metadata: { name, namespace }, rules };
}

export function binding(name: string, roleRef: { kind: string; name: string }, subjects: Subject[], namespace?: string): KubeObject {
  return {
    apiVersion: "rbac.authorization.k8s.io/v1",
    kind: namespace ? "RoleBinding" : "ClusterRoleBinding",
    metadata: { name, namespace },
    roleRef: { apiGroup: "rbac.authorization.k8s.io", ...roleRef },
    subjects,
  };
}

export const user = (name: string): Subject => ({ kind: "User", apiGroup: "rbac.authorization.k8s.io", name });
export const group = (name: string): Subject => ({ kind: "Group", apiGroup: "rbac.authorization.k8s.io", name });

export function request(overrides: Partial<Attributes> = {}): Attributes {
  return {
    user: { username: "bob", groups: ["system:authenticated"] },
    verb: "get",
    isResourceRequest: true,
    path: "/api/v1/namespaces/default/pods/p",
    apiGroup: "",
    apiVersion: "v1",
    namespace: "default",
    resource: "pods",
    subresource: "",
    name: "p",
    ...overrides,
  };
}
