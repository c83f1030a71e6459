/**
 * kubectl auth can-i (--list too) under the built-in authorization modes, as kube-apiserver 1.26 answers them:
 * authorizerfactory's alwaysAllowAuthorizer and alwaysDenyAuthorizer, each an authorizer and a rule resolver.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startServer, type TestServer } from "./harness.ts";
import { kubectlOk } from "./_kubectl.ts";

let alwaysAllow: TestServer;
let denyThenRbac: TestServer;
let alwaysDeny: TestServer;
beforeAll(async () => {
  [alwaysAllow, denyThenRbac, alwaysDeny] = await Promise.all([
    startServer(),
    startServer(["--authorization-mode=AlwaysDeny,RBAC"]),
    startServer(["--authorization-mode=AlwaysDeny"]),
  ]);
  await kubectlOk(denyThenRbac, ["create", "rolebinding", "carol-view", "--clusterrole=view", "--user=carol"]);
});
afterAll(async () => {
  await Promise.all([alwaysAllow?.stop(), denyThenRbac?.stop(), alwaysDeny?.stop()]);
});

/** The rows of `kubectl auth can-i --list`, each cell trimmed. */
function rows(table: string): string[][] {
  return table.trim().split("\n").slice(1).map((line) => line.split(/\s{2,}/).map((cell) => cell.trim()));
}

test("alwaysAllowAuthorizer.RulesFor: can-i --list shows every verb on every resource and path, and the list is complete", async () => {
  const result = await alwaysAllow.kubectl(["auth", "can-i", "--list", "--as=dave"]);
  expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: "" });
  expect(rows(result.stdout)).toEqual([
    ["*.*", "[]", "[]", "[*]"],
    ["", "[*]", "[]", "[*]"],
  ]);
});

test("alwaysDenyAuthorizer.Authorize has no opinion: RBAC after it in the mode list still allows what a binding grants", async () => {
  expect(await kubectlOk(denyThenRbac, ["auth", "can-i", "list", "configmaps", "--as=carol"])).toBe("yes\n");
  expect(await kubectlOk(denyThenRbac, ["get", "configmap", "kube-root-ca.crt", "--as=carol", "-o", "name"])).toBe(
    "configmap/kube-root-ca.crt\n",
  );
});

test("alwaysDenyAuthorizer: a request nothing allows is forbidden with its reason, the union's NoOpinion", async () => {
  const result = await denyThenRbac.kubectl(["get", "configmaps", "--as=dave"]);
  expect(result.code).toBe(1);
  expect(result.stderr).toBe(
    'Error from server (Forbidden): configmaps is forbidden: User "dave" cannot list resource "configmaps" in API group "" in the namespace "default": Everything is forbidden.\n',
  );
  // SelfSubjectAccessReview's status carries the union's reason, which can-i prints after "no".
  expect(await denyThenRbac.kubectl(["auth", "can-i", "create", "configmaps", "--as=carol"])).toEqual({
    code: 1,
    stdout: "no - Everything is forbidden.\n",
    stderr: "",
  });
});

test("alwaysDenyAuthorizer.RulesFor: no rules and complete, so can-i --list shows RBAC's rules without 'the list may be incomplete'", async () => {
  const result = await denyThenRbac.kubectl(["auth", "can-i", "--list", "--as=carol"]);
  expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: "" });
  expect(rows(result.stdout)).toContainEqual(["configmaps", "[]", "[]", "[get list watch]"]);
});

test("a SubjectAccessReview AlwaysDeny leaves undecided is not allowed and not denied, with AlwaysDeny's reason", async () => {
  const review = JSON.parse(
    await kubectlOk(
      denyThenRbac,
      ["create", "-o", "json", "-f", "-"],
      JSON.stringify({
        apiVersion: "authorization.k8s.io/v1",
        kind: "SubjectAccessReview",
        spec: { user: "dave", resourceAttributes: { namespace: "default", verb: "get", resource: "pods" } },
      }),
    ),
  );
  expect(review.status).toEqual({ allowed: false, reason: "Everything is forbidden." });
});

test("NewPrivilegedGroups(system:masters) comes before every mode: under AlwaysDeny alone the admin still works, others do not", async () => {
  expect(await kubectlOk(alwaysDeny, ["create", "configmap", "by-admin", "-o", "name"])).toBe("configmap/by-admin\n");
  expect(await kubectlOk(alwaysDeny, ["auth", "can-i", "delete", "nodes", "--all-namespaces"])).toBe("yes\n");
  const result = await alwaysDeny.kubectl(["get", "configmap", "by-admin", "--as=dave"]);
  expect(result.stderr).toContain(
    'configmaps "by-admin" is forbidden: User "dave" cannot get resource "configmaps" in API group "" in the namespace "default": Everything is forbidden.',
  );
});
