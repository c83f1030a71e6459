import { expect, test } from "bun:test";
import type { KubeObject } from "../../api/types.ts";
import { reconcileClusterRole, reconcileClusterRoleBinding } from "./reconcile.ts";

const role = (rules: unknown[], annotations: Record<string, string> = {}, extra: Partial<KubeObject> = {}): KubeObject => ({
  apiVersion: "rbac.authorization.k8s.io/v1",
  kind: "ClusterRole",
  metadata: { name: "r", labels: { "kubernetes.io/bootstrapping": "rbac-defaults" }, annotations },
  rules,
  ...extra,
});
const get = { apiGroups: [""], resources: ["pods"], verbs: ["get"] };
const list = { apiGroups: [""], resources: ["pods"], verbs: ["list"] };
const userRule = { apiGroups: ["apps"], resources: ["deployments"], verbs: ["get"] };

test("reconcileClusterRole() adds missing rules and keeps rules users added", () => {
  const expected = role([{ ...get, verbs: ["get", "list"] }], { "rbac.authorization.kubernetes.io/autoupdate": "true" });
  const result = reconcileClusterRole(role([get, userRule]), expected);
  expect(result).toEqual({
    action: "update",
    object: role([get, userRule, list], { "rbac.authorization.kubernetes.io/autoupdate": "true" }),
  });
});

test("reconcileClusterRole() leaves a role annotated autoupdate false, and a complete role, unchanged", () => {
  const expected = role([get, list]);
  expect(reconcileClusterRole(role([], { "rbac.authorization.kubernetes.io/autoupdate": "false" }), expected)).toEqual({ action: "none" });
  expect(reconcileClusterRole(role([{ ...get, verbs: ["*"] }]), expected)).toEqual({ action: "none" });
});

test("reconcileClusterRole() adds the aggregation selectors a default aggregated role must have", () => {
  const selector = { matchLabels: { "rbac.authorization.k8s.io/aggregate-to-view": "true" } };
  const mine = { matchLabels: { team: "a" } };
  const result = reconcileClusterRole(
    role([], {}, { aggregationRule: { clusterRoleSelectors: [mine] } }),
    role([], {}, { aggregationRule: { clusterRoleSelectors: [selector] } }),
  );
  expect(result.action).toBe("update");
  expect((result as { object: KubeObject }).object.aggregationRule).toEqual({ clusterRoleSelectors: [mine, selector] });
});

test("reconcileClusterRoleBinding() adds missing subjects, and recreates a binding whose roleRef changed", () => {
  const binding = (roleName: string, subjects: unknown[]): KubeObject => ({
    kind: "ClusterRoleBinding",
    metadata: { name: "b" },
    roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: roleName },
    subjects,
  });
  const masters = { apiGroup: "rbac.authorization.k8s.io", kind: "Group", name: "system:masters" };
  const alice = { apiGroup: "rbac.authorization.k8s.io", kind: "User", name: "alice" };
  const updated = reconcileClusterRoleBinding(binding("x", [alice]), binding("x", [masters]));
  expect(updated).toMatchObject({ action: "update", object: { subjects: [alice, masters] } });
  expect(reconcileClusterRoleBinding(binding("x", [masters]), binding("x", [masters]))).toEqual({ action: "none" });
  expect(reconcileClusterRoleBinding(binding("y", [masters]), binding("x", [masters]))).toMatchObject({
    action: "recreate",
    object: { roleRef: { name: "x" } },
  });
});
