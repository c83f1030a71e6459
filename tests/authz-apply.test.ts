/** Server-side apply asks for patch, and for create as well when the object does not exist yet (spec 4.6.4). */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startServer, type TestServer } from "./harness.ts";
import { kubectlOk } from "./_kubectl.ts";
import { createUser } from "./_users.ts";

let server: TestServer;

beforeAll(async () => {
  server = await startServer(["--authorization-mode", "RBAC"]);
});
afterAll(() => server.stop());

const configMap = (value: string) =>
  `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"applied","namespace":"default"},"data":{"k":"${value}"}}`;

test("a user allowed to patch but not create cannot create by apply, and can apply to an existing object", async () => {
  await kubectlOk(server, ["create", "role", "patcher", "--verb=get,patch", "--resource=configmaps", "-n", "default"]);
  await kubectlOk(server, ["create", "rolebinding", "patcher", "--role=patcher", "--user=patcher", "-n", "default"]);
  const patcher = await createUser(server, "patcher");

  const refused = await patcher.kubectl(["apply", "--server-side", "-f", "-"], { stdin: configMap("one") });
  expect(refused.code).toBe(1);
  expect(refused.stderr).toContain(
    'configmaps "applied" is forbidden: User "patcher" cannot create resource "configmaps" in API group "" in the namespace "default"',
  );
  expect((await server.kubectl(["get", "configmap", "applied", "-n", "default"])).code).toBe(1);

  await kubectlOk(server, ["create", "configmap", "applied", "-n", "default", "--from-literal=k=zero"]);
  const applied = await patcher.kubectl(["apply", "--server-side", "--force-conflicts", "-f", "-"], { stdin: configMap("two") });
  expect({ code: applied.code, stderr: applied.stderr }).toEqual({ code: 0, stderr: "" });
  const result = await server.kubectl(["get", "configmap", "applied", "-n", "default", "-o", "jsonpath={.data.k}"]);
  expect(result.stdout).toBe("two");
});
