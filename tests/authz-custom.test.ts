/**
 * A custom authorizer from a TypeScript module path in --authorization-mode, loaded by the compiled binary and
 * chained with RBAC like a built-in: it reads its policy from the store through the plugin context's client.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { resolve } from "node:path";
import { startServer, type TestServer } from "./harness.ts";
import { createUser } from "./_users.ts";
import { scratchDir, writeModule } from "./_authn.ts";

const SDK = resolve(import.meta.dir, "../plugins/sdk.ts");

// Type-only imports vanish when the module is loaded, so it needs nothing beside itself at run time.
const AUTHORIZER = `
import type { AuthorizerFactory } from ${JSON.stringify(SDK)};

/** Users named in the data of ConfigMap kube-system/readers may read; mallory may do nothing; the rest is left to others. */
const factory: AuthorizerFactory = ({ client, log }) => {
  log.info("readers authorizer ready");
  return {
    async authorize(a) {
      if (a.user.username === "mallory") return { decision: "Deny", reason: "mallory is banned" };
      if (!["get", "list", "watch"].includes(a.verb)) return { decision: "NoOpinion" };
      const readers = await client.get({ group: "", version: "v1", resource: "configmaps", namespace: "kube-system", name: "readers" });
      const listed = Object.keys((readers?.data as Record<string, string> | undefined) ?? {});
      return listed.includes(a.user.username) ? { decision: "Allow", reason: "listed in readers" } : { decision: "NoOpinion", reason: "not a reader" };
    },
  };
};
export default factory;
`;

let server: TestServer;
let scratch: Awaited<ReturnType<typeof scratchDir>>;

beforeAll(async () => {
  scratch = await scratchDir();
  const authorizer = await writeModule(scratch.path, "my-authz.ts", AUTHORIZER);
  server = await startServer([`--authorization-mode=${authorizer},RBAC`]);
});
afterAll(async () => {
  await server?.stop();
  await scratch?.remove();
});

test("the module's Allow lets a user read, as its store-backed policy changes", async () => {
  const reader = await createUser(server, "rosa");
  const before = await reader.kubectl(["get", "namespaces"]);
  expect(before.stderr).toContain('User "rosa" cannot list resource "namespaces" in API group "" at the cluster scope: not a reader');
  expect((await server.kubectl(["create", "configmap", "readers", "-n", "kube-system", "--from-literal=rosa=yes"])).code).toBe(0);
  expect((await reader.kubectl(["get", "namespace", "default", "-o", "name"])).stdout).toBe("namespace/default\n");
  expect((await reader.kubectl(["create", "namespace", "rosa"])).stderr).toContain('User "rosa" cannot create resource "namespaces"');
});

test("the module's Deny is final, even for what RBAC would allow", async () => {
  expect((await server.kubectl(["create", "clusterrolebinding", "mallory-admin", "--clusterrole=cluster-admin", "--user=mallory"])).code)
    .toBe(0);
  const mallory = await createUser(server, "mallory");
  expect((await mallory.kubectl(["get", "namespaces"])).stderr).toContain(
    'User "mallory" cannot list resource "namespaces" in API group "" at the cluster scope: mallory is banned',
  );
});

test("the module's no opinion leaves the decision to RBAC", async () => {
  expect((await server.kubectl(["create", "clusterrolebinding", "eve-admin", "--clusterrole=cluster-admin", "--user=eve"])).code).toBe(0);
  const eve = await createUser(server, "eve");
  expect((await eve.kubectl(["create", "namespace", "eve"])).stdout).toBe("namespace/eve created\n");
});

test("a module path that cannot be loaded stops the server at start", async () => {
  const missing = resolve(scratch.path, "missing-authz.ts");
  const failure = await startServer([`--authorization-mode=${missing}`]).then(
    async (started) => {
      await started.stop();
      return "";
    },
    (error: Error) => error.message,
  );
  expect(failure).toContain(`cannot load authorization plugin ${missing}`);
});
