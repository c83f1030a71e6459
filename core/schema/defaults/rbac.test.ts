import { expect, test } from "bun:test";
import type { KubeObject } from "../../api/types.ts";
import { RBAC_DEFAULTERS } from "./rbac.ts";

test("a binding's roleRef and User/Group subjects default to the RBAC API group; ServiceAccounts stay in the core group", () => {
  const binding: KubeObject = {
    apiVersion: "rbac.authorization.k8s.io/v1",
    kind: "RoleBinding",
    metadata: { name: "b" },
    roleRef: { kind: "Role", name: "r" },
    subjects: [{ kind: "User", name: "alice" }, { kind: "Group", name: "devs" }, { kind: "ServiceAccount", name: "sa", namespace: "ns" }],
  };
  RBAC_DEFAULTERS.kinds.RoleBinding(binding);
  expect(binding.roleRef).toEqual({ kind: "Role", name: "r", apiGroup: "rbac.authorization.k8s.io" });
  expect(binding.subjects).toEqual([
    { kind: "User", name: "alice", apiGroup: "rbac.authorization.k8s.io" },
    { kind: "Group", name: "devs", apiGroup: "rbac.authorization.k8s.io" },
    { kind: "ServiceAccount", name: "sa", namespace: "ns" },
  ]);
});

test("a ClusterRoleBinding keeps an explicit apiGroup", () => {
  const binding: KubeObject = {
    apiVersion: "rbac.authorization.k8s.io/v1",
    kind: "ClusterRoleBinding",
    metadata: { name: "b" },
    roleRef: { apiGroup: "other.example.com", kind: "ClusterRole", name: "r" },
    subjects: [{ kind: "User", name: "bob", apiGroup: "x" }],
  };
  RBAC_DEFAULTERS.kinds.ClusterRoleBinding(binding);
  expect(binding.roleRef).toEqual({ apiGroup: "other.example.com", kind: "ClusterRole", name: "r" });
  expect(binding.subjects).toEqual([{ kind: "User", name: "bob", apiGroup: "x" }]);
});
