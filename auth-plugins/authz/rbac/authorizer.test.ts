import { expect, test } from "bun:test";
import { binding, clusterRole, group, request, role, user } from "../../../core/auth/rbac/testing.ts";
import { PolicyIndex } from "../../../core/auth/rbac/policy-index.ts";
import { rbacAuthorizer } from "./authorizer.ts";

function indexWithViewer(): PolicyIndex {
  const index = new PolicyIndex();
  index.setClusterRole(clusterRole("viewer", [{ apiGroups: [""], resources: ["pods"], verbs: ["get", "list", "watch"] }]));
  index.setBinding("RoleBinding", binding("bob-view", { kind: "ClusterRole", name: "viewer" }, [user("bob")], "default"));
  return index;
}

test("authorize() allows what a bound rule grants and names the binding in the reason", async () => {
  const result = await rbacAuthorizer(indexWithViewer()).authorize(request());
  expect(result).toEqual({
    decision: "Allow",
    reason: 'RBAC: allowed by RoleBinding "bob-view/default" of ClusterRole "viewer" to User "bob"',
  });
});

test("authorize() has no opinion on anything else, with the missing roles as the reason", async () => {
  const index = indexWithViewer();
  const authorizer = rbacAuthorizer(index);
  expect(await authorizer.authorize(request({ verb: "create", name: "" }))).toEqual({ decision: "NoOpinion", reason: undefined });
  expect((await authorizer.authorize(request({ namespace: "other" }))).decision).toBe("NoOpinion");
  index.setBinding("ClusterRoleBinding", binding("gone", { kind: "ClusterRole", name: "x" }, [group("system:authenticated")]));
  index.setBinding("RoleBinding", binding("gone-too", { kind: "Role", name: "y" }, [user("bob")], "default"));
  expect(await authorizer.authorize(request({ verb: "delete" }))).toEqual({
    decision: "NoOpinion",
    reason: 'RBAC: [clusterrole.rbac.authorization.k8s.io "x" not found, role.rbac.authorization.k8s.io "y" not found]',
  });
});

test("rulesFor() lists the user's rules as complete", async () => {
  const index = indexWithViewer();
  index.setRole(role("default", "r", [{ nonResourceURLs: ["/x"], verbs: ["get"] }]));
  index.setBinding("RoleBinding", binding("b", { kind: "Role", name: "r" }, [user("bob")], "default"));
  const rules = await rbacAuthorizer(index).rulesFor!({ username: "bob", groups: [] }, "default");
  expect(rules).toEqual({
    rules: [{ apiGroups: [""], resources: ["pods"], verbs: ["get", "list", "watch"] }, { nonResourceURLs: ["/x"], verbs: ["get"] }],
    incomplete: false,
    errors: [],
  });
});
