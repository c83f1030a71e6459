import { expect, test } from "bun:test";
import { binding, clusterRole, group, role, user } from "./testing.ts";
import { PolicyIndex } from "./policy-index.ts";

const podsRead = { apiGroups: [""], resources: ["pods"], verbs: ["get"] };
const secretsRead = { apiGroups: [""], resources: ["secrets"], verbs: ["get"] };
const bob = { username: "bob", groups: ["devs", "system:authenticated"] };

test("rulesFor() gathers cluster-wide bindings everywhere and role bindings only in their namespace", () => {
  const index = new PolicyIndex();
  index.setClusterRole(clusterRole("reader", [podsRead]));
  index.setRole(role("team", "secrets", [secretsRead]));
  index.setBinding("ClusterRoleBinding", binding("devs-read", { kind: "ClusterRole", name: "reader" }, [group("devs")]));
  index.setBinding("RoleBinding", binding("bob-secrets", { kind: "Role", name: "secrets" }, [user("bob")], "team"));
  expect(index.rulesFor(bob, "")).toEqual({ rules: [podsRead], errors: [] });
  expect(index.rulesFor(bob, "team")).toEqual({ rules: [podsRead, secretsRead], errors: [] });
  expect(index.rulesFor(bob, "other")).toEqual({ rules: [podsRead], errors: [] });
  expect(index.rulesFor({ username: "eve", groups: [] }, "team")).toEqual({ rules: [], errors: [] });
});

test("rulesFor() sees role and binding changes and deletions, and reports missing roles", () => {
  const index = new PolicyIndex();
  index.setBinding("ClusterRoleBinding", binding("b", { kind: "ClusterRole", name: "reader" }, [user("bob")]));
  expect(index.rulesFor(bob, "")).toEqual({ rules: [], errors: ['clusterrole.rbac.authorization.k8s.io "reader" not found'] });
  index.setClusterRole(clusterRole("reader", [podsRead]));
  expect(index.rulesFor(bob, "").rules).toEqual([podsRead]);
  index.setBinding("ClusterRoleBinding", binding("b", { kind: "ClusterRole", name: "reader" }, [user("alice")]));
  expect(index.rulesFor(bob, "").rules).toEqual([]);
  index.setBinding("ClusterRoleBinding", binding("b", { kind: "ClusterRole", name: "reader" }, [user("bob")]));
  index.deleteClusterRole("reader");
  expect(index.rulesFor(bob, "").errors).toHaveLength(1);
  index.deleteBinding("ClusterRoleBinding", "", "b");
  expect(index.rulesFor(bob, "")).toEqual({ rules: [], errors: [] });
});

test("a ServiceAccount subject applies to the account's user name, defaulting to the binding's namespace", () => {
  const index = new PolicyIndex();
  index.setClusterRole(clusterRole("reader", [podsRead]));
  index.setBinding(
    "RoleBinding",
    binding("sa", { kind: "ClusterRole", name: "reader" }, [{ kind: "ServiceAccount", name: "builder" }], "ci"),
  );
  const account = { username: "system:serviceaccount:ci:builder", groups: ["system:serviceaccounts", "system:serviceaccounts:ci"] };
  expect(index.rulesFor(account, "ci").rules).toEqual([podsRead]);
  expect(index.rulesFor({ ...account, username: "system:serviceaccount:other:builder" }, "ci").rules).toEqual([]);
});

test("visitRulesFor() visits a binding once even when several of its subjects apply, and stops when asked", () => {
  const index = new PolicyIndex();
  index.setClusterRole(clusterRole("two", [podsRead, secretsRead]));
  index.setBinding("ClusterRoleBinding", binding("both", { kind: "ClusterRole", name: "two" }, [user("bob"), group("devs")]));
  const described: string[] = [];
  index.visitRulesFor(bob, "", {
    rule: (_rule, source) => {
      described.push(source.describe());
      return described.length < 1;
    },
    error: () => true,
  }, undefined);
  expect(described).toEqual(['ClusterRoleBinding "both" of ClusterRole "two" to User "bob"']);
  expect(index.rulesFor(bob, "").rules).toHaveLength(2);
});

test("visitRulesFor() visits a binding naming two of the user's groups once, described by its first applying subject (kube's appliesTo)", () => {
  const index = new PolicyIndex();
  index.setClusterRole(clusterRole("reader", [podsRead]));
  index.setBinding(
    "ClusterRoleBinding",
    binding("groups", { kind: "ClusterRole", name: "reader" }, [group("system:authenticated"), group("devs")]),
  );
  const described: string[] = [];
  index.visitRulesFor(bob, "", { rule: (_rule, source) => described.push(source.describe()) > 0, error: () => true }, undefined);
  expect(described).toEqual(['ClusterRoleBinding "groups" of ClusterRole "reader" to Group "system:authenticated"']);
  index.deleteBinding("ClusterRoleBinding", "", "groups");
  expect(index.rulesFor(bob, "")).toEqual({ rules: [], errors: [] });
});

test("visitRulesFor() describes a binding found by the user's name by its earlier applying group subject (kube's appliesTo)", () => {
  const index = new PolicyIndex();
  index.setRole(role("idn", "r1", [podsRead]));
  index.setBinding("RoleBinding", binding("b1", { kind: "Role", name: "r1" }, [group("devs"), user("bob")], "idn"));
  const described: string[] = [];
  index.visitRulesFor(bob, "idn", { rule: (_rule, source) => described.push(source.describe()) > 0, error: () => true }, undefined);
  expect(described).toEqual(['RoleBinding "b1/idn" of Role "r1" to Group "devs"']);
});
