/**
 * Hostile Authorization headers, read as kube's bearertoken.AuthenticateRequest reads them: words after the token
 * are ignored, and a second space before the token makes the header ignored (with a warning), so the request
 * goes on as one without credentials.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { startServer, type TestServer } from "./harness.ts";
import { kubectlOk } from "./_kubectl.ts";

let server: TestServer;

beforeAll(async () => {
  server = await startServer(["--authorization-mode=RBAC"]);
  // The token file must exist before start: restart on the same data directory with it.
  const tokens = join(server.dataDir, "tokens.csv");
  await writeFile(tokens, "goodtoken,alice,uid-1\n", { mode: 0o600 });
  await kubectlOk(server, ["create", "clusterrolebinding", "alice-view", "--clusterrole=view", "--user=alice"]);
  await server.terminate();
  server = await startServer(["--authorization-mode=RBAC", `--token-auth-file=${tokens}`], { dataDir: server.dataDir });
});
afterAll(() => server?.stop());

const withAuthorization = (value: string) =>
  server.requestAnonymous("GET", "/api/v1/namespaces/default/configmaps", { headers: { Authorization: value } });

test("bearertoken: `Bearer goodtoken extra` authenticates goodtoken", async () => {
  const response = await withAuthorization("Bearer goodtoken extra");
  expect(response.status).toBe(200);
});

test("bearertoken: `Bearer  goodtoken` (two spaces) is ignored with kube's warning and the request is anonymous", async () => {
  const response = await withAuthorization("Bearer  goodtoken");
  expect(response.status).toBe(403);
  expect((await response.json()).message).toContain('User "system:anonymous" cannot list resource "configmaps"');
  expect(response.headers.get("warning")).toBe(
    '299 - "the provided Authorization header contains extra space before the bearer token, and is ignored"',
  );
});

test("bearertoken: an unknown token is 401, never anonymous", async () => {
  const response = await withAuthorization("Bearer badtoken");
  expect(response.status).toBe(401);
});
