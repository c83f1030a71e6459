/** Impersonation (spec 5.8): Impersonate-* headers checked as verb impersonate, with kubectl --as / --as-group. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFile } from "node:fs/promises";
import { type Credentials, readCredentials, startServer, type TestServer } from "./harness.ts";
import { createUser } from "./_users.ts";
import { expectStatus } from "./_api.ts";
import { scratchDir, whoami, WHOAMI_AUTHORIZER, writeModule } from "./_authn.ts";

let scratch: Awaited<ReturnType<typeof scratchDir>>;
beforeAll(async () => (scratch = await scratchDir()));
afterAll(async () => await scratch?.remove());

describe("with --authorization-mode=AlwaysAllow", () => {
  let server: TestServer;
  beforeAll(async () => (server = await startServer(["--authorization-mode=AlwaysAllow"])));
  afterAll(async () => await server?.stop());

  test("kubectl --as and --as-group work", async () => {
    const result = await server.kubectl(["--as=jane", "--as-group=dev", "get", "namespaces", "-o", "name"]);
    expect(result.stderr).toBe("");
    expect(result.stdout).toContain("namespace/default");
  });

  test("Impersonate-Group without Impersonate-User is kube's plain-text 500", async () => {
    const response = await server.request("GET", "/api/v1/namespaces", { headers: { "Impersonate-Group": "dev" } });
    expect(response.status).toBe(500);
    expect(await response.text()).toBe(
      'Internal Server Error: "/api/v1/namespaces": requested [{Group  dev    }] without impersonating a user\n',
    );
  });
});

describe("with an authorizer module that denies impersonating 'forbidden'", () => {
  let server: TestServer;
  beforeAll(async () => {
    const authorizer = await writeModule(scratch.path, "whoami.ts", WHOAMI_AUTHORIZER);
    server = await startServer([`--authorization-mode=${authorizer}`]);
  });
  afterAll(async () => await server?.stop());

  test("the request runs as the impersonated user, groups and uid", async () => {
    expect(await whoami(server.kubeconfig, ["--as=jane", "--as-group=dev", "--as-group=ops", "--as-uid=42"])).toEqual({
      username: "jane",
      uid: "42",
      groups: ["dev", "ops", "system:authenticated"],
    });
  });

  test("a service account name gets the account's groups", async () => {
    expect(await whoami(server.kubeconfig, ["--as=system:serviceaccount:team:builder"])).toEqual({
      username: "system:serviceaccount:team:builder",
      groups: ["system:serviceaccounts", "system:serviceaccounts:team", "system:authenticated"],
    });
  });

  test("Impersonate-Extra-* keys are percent-decoded and lower-cased", async () => {
    const headers = { "Impersonate-User": "jane", "Impersonate-Extra-Example.com%2FScopes": "read" };
    const response = await server.request("GET", "/whoami", { headers });
    const message: string = (await response.json()).message;
    expect(JSON.parse(message.slice(message.indexOf("{")))).toEqual({
      username: "jane",
      groups: ["system:authenticated"],
      extra: { "example.com/scopes": ["read"] },
    });
  });

  test("impersonating without the verb is 403 naming the requester and the resource", async () => {
    // Not the admin: kube's AuthorizeClientBearerToken union allows system:masters before any mode, impersonation too.
    const operator = await createUser(server, "operator");
    // --raw: a denied discovery request would make kubectl print "unknown" instead of the message.
    const result = await operator.kubectl(["--as=forbidden", "get", "--raw", "/api/v1/namespaces"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'Error from server (Forbidden): users "forbidden" is forbidden: User "operator" cannot impersonate resource "users" in API group "" at the cluster scope',
    );
    const credentials = readCredentials(await readFile(operator.kubeconfig, "utf8"));
    const group = await listNamespacesAs(credentials, { "Impersonate-User": "jane", "Impersonate-Group": "forbidden" });
    expectStatus(
      group,
      403,
      "Forbidden",
      'groups "forbidden" is forbidden: User "operator" cannot impersonate resource "groups" in API group "" at the cluster scope',
    );
    const extra = await listNamespacesAs(credentials, { "Impersonate-User": "jane", "Impersonate-Extra-Scopes": "forbidden" });
    expectStatus(
      extra,
      403,
      "Forbidden",
      'userextras.authentication.k8s.io "forbidden" is forbidden: User "operator" cannot impersonate resource "userextras/scopes" in API group "authentication.k8s.io" at the cluster scope',
    );
  });
});

async function listNamespacesAs({ url, ca, cert, key }: Credentials, headers: Record<string, string>) {
  const response = await fetch(`${url}/api/v1/namespaces`, { headers, tls: { ca, cert, key } });
  return { status: response.status, body: await response.json() };
}
