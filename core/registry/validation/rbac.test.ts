import { expect, test } from "bun:test";
import { messages } from "./_testing.ts";
import { roleRefUnchanged, validateClusterRoleBinding, validateRole, validateRoleBinding } from "./rbac.ts";

const binding = (roleRef: Record<string, unknown>, subjects: unknown[] = []) => ({
  metadata: { name: "b", namespace: "ns" },
  roleRef,
  subjects,
});
const viewRef = { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: "view" };

test("validateRole() requires verbs and resource rules with groups and resources", () => {
  expect(messages(validateRole({ metadata: { name: "r" }, rules: [{ verbs: [], nonResourceURLs: ["/healthz"] }, { verbs: ["get"] }] })))
    .toEqual([
      "rules[0].verbs: Required value: verbs must contain at least one value",
      'rules[0].nonResourceURLs: Invalid value: []string{"/healthz"}: namespaced rules cannot apply to non-resource URLs',
      "rules[1].apiGroups: Required value: resource rules must supply at least one api group",
      "rules[1].resources: Required value: resource rules must supply at least one resource",
    ]);
});

test("bindings check roleRef kind and subject kinds", () => {
  expect(messages(validateClusterRoleBinding(binding({ ...viewRef, kind: "Role" }, [{ kind: "Robot", name: "r" }])))).toEqual([
    'roleRef.kind: Unsupported value: "Role": supported values: "ClusterRole"',
    'subjects[0].kind: Unsupported value: "Robot": supported values: "ServiceAccount", "User", "Group"',
  ]);
  expect(messages(validateClusterRoleBinding(binding(viewRef, [{ kind: "ServiceAccount", name: "sa" }])))).toEqual([
    "subjects[0].namespace: Required value",
  ]);
  expect(validateRoleBinding(binding(viewRef, [{ kind: "User", name: "alice" }]))).toEqual([]);
});

test("roleRefUnchanged() refuses a different roleRef with kube's message", () => {
  expect(messages(roleRefUnchanged(binding({ ...viewRef, name: "edit" }), binding(viewRef)))).toEqual([
    'roleRef: Invalid value: rbac.RoleRef{APIGroup:"rbac.authorization.k8s.io", Kind:"ClusterRole", Name:"edit"}: cannot change roleRef',
  ]);
});
