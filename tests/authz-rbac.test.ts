/** RBAC end to end with kubectl: default roles, bindings, aggregation, escalation prevention, dry run. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startServer, type TestServer } from "./harness.ts";
import { createUser } from "./_users.ts";

let server: TestServer;

beforeAll(async () => {
  server = await startServer(["--authorization-mode", "RBAC"]);
});
afterAll(() => server.stop());

async function admin(args: string[], stdin?: string): Promise<string> {
  const result = await server.kubectl(args, { stdin });
  expect({ args, code: result.code, stderr: result.stderr }).toEqual({
    args,
    code: 0,
    stderr: result.stderr.includes("Warning") ? result.stderr : "",
  });
  return result.stdout;
}

async function until(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 50 && !(await check()); i++) await Bun.sleep(100);
  expect(await check()).toBe(true);
}

test("the admin (system:masters) does everything through the cluster-admin binding the server creates", async () => {
  expect(await admin(["get", "clusterrolebinding", "cluster-admin", "-o", "jsonpath={.subjects[0].name}"])).toBe("system:masters");
  await admin(["create", "namespace", "rbac-admin"]);
});

test("a user bound to view may get, list and watch, but not create", async () => {
  const viewer = await createUser(server, "viewer");
  expect((await viewer.kubectl(["get", "pods"])).stderr).toContain('User "viewer" cannot list resource "pods"');
  await admin(["create", "rolebinding", "viewer-view", "--clusterrole=view", "--user=viewer", "-n", "default"]);
  await admin(["create", "configmap", "shown", "-n", "default"]);
  expect((await viewer.kubectl(["get", "configmap", "shown", "-o", "name"])).stdout).toBe("configmap/shown\n");
  expect((await viewer.kubectl(["get", "configmaps", "-o", "name"])).stdout).toContain("configmap/shown");
  expect((await viewer.kubectl(["get", "configmaps", "--watch-only", "--request-timeout=1s"])).stderr).not.toContain("forbidden");
  const denied = await viewer.kubectl(["create", "configmap", "nope", "-n", "default"]);
  expect(denied.code).toBe(1);
  expect(denied.stderr).toContain(
    'configmaps is forbidden: User "viewer" cannot create resource "configmaps" in API group "" in the namespace "default"',
  );
  const dryRun = await viewer.kubectl(["create", "configmap", "nope", "-n", "default", "--dry-run=server"]);
  expect(dryRun.stderr).toContain('User "viewer" cannot create resource "configmaps"');
  expect((await viewer.kubectl(["get", "pods", "-n", "kube-system"])).stderr).toContain("forbidden");
});

test("a user bound to edit may create", async () => {
  const editor = await createUser(server, "editor");
  await admin(["create", "rolebinding", "editor-edit", "--clusterrole=edit", "--user=editor", "-n", "default"]);
  const created = await editor.kubectl(["create", "configmap", "made-by-editor", "-n", "default"]);
  expect(created).toMatchObject({ code: 0, stdout: "configmap/made-by-editor created\n" });
});

test("a ClusterRole labelled aggregate-to-view adds its rules to view, edit and admin", async () => {
  const reader = await createUser(server, "secret-reader");
  await admin(["create", "rolebinding", "reader-view", "--clusterrole=view", "--user=secret-reader", "-n", "default"]);
  expect((await reader.kubectl(["get", "secrets"])).code).toBe(1);
  await admin(
    ["apply", "-f", "-"],
    JSON.stringify({
      apiVersion: "rbac.authorization.k8s.io/v1",
      kind: "ClusterRole",
      metadata: { name: "secrets-view", labels: { "rbac.authorization.k8s.io/aggregate-to-view": "true" } },
      rules: [{ apiGroups: [""], resources: ["secrets"], verbs: ["get", "list"] }],
    }),
  );
  await until(async () => (await reader.kubectl(["get", "secrets"])).code === 0);
  await until(async () => (await admin(["get", "clusterrole", "admin", "-o", "json"])).includes('"secrets"'));
});

test("writing roles and bindings needs the permissions they grant, or the escalate and bind verbs", async () => {
  const delegate = await createUser(server, "delegate");
  await admin([
    "create",
    "clusterrole",
    "rbac-writer",
    "--verb=create,get,update",
    "--resource=roles.rbac.authorization.k8s.io,rolebindings.rbac.authorization.k8s.io",
  ]);
  await admin(["create", "rolebinding", "delegate-writer", "--clusterrole=rbac-writer", "--user=delegate", "-n", "default"]);

  const role = await delegate.kubectl(["create", "role", "pod-reader", "--verb=get", "--resource=pods", "-n", "default"]);
  expect(role.code).toBe(1);
  expect(role.stderr).toContain(
    'roles.rbac.authorization.k8s.io "pod-reader" is forbidden: user "delegate" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n' +
      '{APIGroups:[""], Resources:["pods"], Verbs:["get"]}',
  );
  const bindView = ["create", "rolebinding", "friend-view", "--clusterrole=view", "--user=friend", "-n", "default"];
  expect((await delegate.kubectl(bindView)).stderr).toContain("is attempting to grant RBAC permissions not currently held");

  await admin([
    "create",
    "clusterrole",
    "view-binder",
    "--verb=bind",
    "--resource=clusterroles.rbac.authorization.k8s.io",
    "--resource-name=view",
  ]);
  await admin(["create", "rolebinding", "delegate-binder", "--clusterrole=view-binder", "--user=delegate", "-n", "default"]);
  expect(await delegate.kubectl(bindView)).toMatchObject({
    code: 0,
    stdout: "rolebinding.rbac.authorization.k8s.io/friend-view created\n",
  });
  const bindEdit = await delegate.kubectl(["create", "rolebinding", "friend-edit", "--clusterrole=edit", "--user=friend", "-n", "default"]);
  expect(bindEdit.code).toBe(1);

  await admin(["create", "clusterrole", "escalator", "--verb=escalate", "--resource=roles.rbac.authorization.k8s.io"]);
  await admin(["create", "rolebinding", "delegate-escalator", "--clusterrole=escalator", "--user=delegate", "-n", "default"]);
  expect((await delegate.kubectl(["create", "role", "pod-reader", "--verb=get", "--resource=pods", "-n", "default"])).code).toBe(0);
});
