/** Server-side apply asks for patch, and for create as well when the object does not exist yet (spec 4.6.4). */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startServer, type TestServer } from "./harness.ts";
import { createUser } from "./_users.ts";

let server: TestServer;

beforeAll(async () => {
  server = await startServer(["--authorization-mode", "RBAC"]);
});
afterAll(() => server.stop());

async function admin(args: string[]): Promise<void> {
  const result = await server.kubectl(args);
  expect({ args, code: result.code, stderr: result.stderr }).toEqual({ args, code: 0, stderr: "" });
}

const configMap = (value: string) => `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"applied","namespace":"default"},"data":{"k":"${value}"}}`;

test("a user allowed to patch but not create cannot create by apply, and can apply to an existing object", async () => {
  await admin(["create", "role", "patcher", "--verb=get,patch", "--resource=configmaps", "-n", "default"]);
  await admin(["create", "rolebinding", "patcher", "--role=patcher", "--user=patcher", "-n", "default"]);
  const patcher = await createUser(server, "patcher");

  const refused = await patcher.kubectl(["apply", "--server-side", "-f", "-"], { stdin: configMap("one") });
  expect(refused.code).toBe(1);
  expect(refused.stderr).toContain('configmaps "applied" is forbidden: User "patcher" cannot create resource "configmaps" in API group "" in the namespace "default"');
  expect((await server.kubectl(["get", "configmap", "applied", "-n", "default"])).code).toBe(1);

  await admin(["create", "configmap", "applied", "-n", "default", "--from-literal=k=zero"]);
  const applied = await patcher.kubectl(["apply", "--server-side", "--force-conflicts", "-f", "-"], { stdin: configMap("two") });
  expect({ code: applied.code, stderr: applied.stderr }).toEqual({ code: 0, stderr: "" });
  const result = await server.kubectl(["get", "configmap", "applied", "-n", "default", "-o", "jsonpath={.data.k}"]);
  expect(result.stdout).toBe("two");
});
