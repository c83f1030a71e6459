/** ABAC end to end with kubectl: a policy file with a readonly user, a writer limited to one namespace, and anonymous access to /api. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { startServer, type TestServer } from "./harness.ts";
import { createUser } from "./_users.ts";
import { scratchDir } from "./_authn.ts";

const policy = (spec: Record<string, unknown>) =>
  JSON.stringify({ apiVersion: "abac.authorization.kubernetes.io/v1beta1", kind: "Policy", spec });

const POLICIES = [
  "# the admin kubeconfig's user",
  policy({ group: "system:masters", apiGroup: "*", namespace: "*", resource: "*", nonResourcePath: "*" }),
  policy({ user: "alice", readonly: true, apiGroup: "*", namespace: "*", resource: "*", nonResourcePath: "*" }),
  "",
  policy({ user: "bob", apiGroup: "", namespace: "team", resource: "configmaps" }),
  policy({ group: "system:unauthenticated", readonly: true, nonResourcePath: "/api" }),
].join("\n");

let server: TestServer;
let scratch: Awaited<ReturnType<typeof scratchDir>>;

beforeAll(async () => {
  scratch = await scratchDir();
  const file = join(scratch.path, "abac.jsonl");
  await writeFile(file, POLICIES);
  server = await startServer(["--authorization-mode=ABAC", `--authorization-policy-file=${file}`]);
  expect((await server.kubectl(["create", "namespace", "team"])).code).toBe(0);
});
afterAll(async () => {
  await server?.stop();
  await scratch?.remove();
});

test("a readonly user can get and list but not create", async () => {
  const alice = await createUser(server, "alice");
  expect((await alice.kubectl(["get", "namespace", "team", "-o", "name"])).stdout).toBe("namespace/team\n");
  expect((await alice.kubectl(["get", "configmaps", "-A", "-o", "name"])).code).toBe(0);
  const denied = await alice.kubectl(["create", "configmap", "nope", "-n", "team"]);
  expect(denied.code).toBe(1);
  expect(denied.stderr).toContain(
    'configmaps is forbidden: User "alice" cannot create resource "configmaps" in API group "" in the namespace "team": No policy matched.',
  );
});

test("a policy for one resource in one namespace allows every verb there and nothing elsewhere", async () => {
  const bob = await createUser(server, "bob");
  expect((await bob.kubectl(["create", "configmap", "made", "-n", "team"])).stdout).toBe("configmap/made created\n");
  expect((await bob.kubectl(["delete", "configmap", "made", "-n", "team"])).code).toBe(0);
  expect((await bob.kubectl(["get", "configmaps", "-n", "default"])).stderr).toContain(
    'User "bob" cannot list resource "configmaps" in API group "" in the namespace "default"',
  );
  expect((await bob.kubectl(["get", "secrets", "-n", "team"])).stderr).toContain('User "bob" cannot list resource "secrets"');
});

test("a non-resource path policy for system:unauthenticated lets anonymous requests read that path only", async () => {
  expect((await server.requestAnonymous("GET", "/api")).status).toBe(200);
  expect((await server.requestAnonymous("GET", "/apis")).status).toBe(403);
  expect((await server.requestAnonymous("GET", "/api/v1/namespaces")).status).toBe(403);
});

test("a policy file with a bad line stops the server at start naming the line", async () => {
  const file = join(scratch.path, "bad.jsonl");
  await writeFile(file, `${POLICIES}\n{"user": `);
  const failure = await startServer(["--authorization-mode=ABAC", `--authorization-policy-file=${file}`]).then(
    async (started) => {
      await started.stop();
      return "";
    },
    (error: Error) => error.message,
  );
  expect(failure).toContain(`error reading policy file ${file}, line 7: {"user": `);
});
