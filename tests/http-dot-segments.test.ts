/**
 * Hostile paths: "." and ".." segments, plain or percent-encoded, are not resolved to the parent path (kube's
 * server routes the path as sent); as a name they fail kube's NamespaceKeyFunc / NoNamespaceKeyFunc check
 * (path.IsValidPathSegmentName) with 400, and nothing is read or changed.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startServer, type TestServer } from "./harness.ts";
import { kubectlOk } from "./_kubectl.ts";
import { rawRequest } from "./_raw-request.ts";

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
  await kubectlOk(server, ["create", "configmap", "kept", "--from-literal=k=v"]);
});
afterAll(() => server?.stop());

const badName = (name: string, why: string) => ({ status: 400, message: `Name parameter invalid: "${name}": ${why}` });
const answer = async (method: string, path: string) => {
  const { status, body } = await rawRequest(server, method, path);
  return { status, message: JSON.parse(body).message };
};

test('NamespaceKeyFunc: GET configmaps/%2e%2e is 400 for the name "..", not the parent Namespace', async () => {
  expect(await answer("GET", "/api/v1/namespaces/default/configmaps/%2e%2e")).toEqual(badName("..", "may not be '..'"));
  expect(await answer("GET", "/api/v1/namespaces/default/configmaps/%2E")).toEqual(badName(".", "may not be '.'"));
  expect(await answer("GET", "/api/v1/namespaces/default/configmaps/..")).toEqual(badName("..", "may not be '..'"));
});

test("NoNamespaceKeyFunc: GET and DELETE namespaces/%2e%2e are 400; DELETE configmaps/%2e%2e does not delete the Namespace", async () => {
  expect(await answer("GET", "/api/v1/namespaces/%2e%2e")).toEqual(badName("..", "may not be '..'"));
  expect(await answer("DELETE", "/api/v1/namespaces/%2e%2e")).toEqual(badName("..", "may not be '..'"));
  expect(await answer("DELETE", "/api/v1/namespaces/default/configmaps/%2e%2e")).toEqual(badName("..", "may not be '..'"));
  expect(await kubectlOk(server, ["get", "namespace", "default", "-o", "jsonpath={.status.phase}"])).toBe("Active");
  expect(await kubectlOk(server, ["get", "configmap", "kept", "-o", "name"])).toBe("configmap/kept\n");
});

test("NamespaceKeyFunc: a name with an encoded % is 400 (may not contain '%')", async () => {
  expect(await answer("GET", "/api/v1/namespaces/default/configmaps/a%25b")).toEqual(badName("a%b", "may not contain '%'"));
});

test('a ".." namespace segment lists that (absent) namespace, not every namespace', async () => {
  const { status, body } = await rawRequest(server, "GET", "/api/v1/namespaces/%2e%2e/configmaps");
  expect(status).toBe(200);
  expect(JSON.parse(body).items).toEqual([]);
});

test("NamespaceKeyFunc: subresources served by their own handlers check the name too (serviceaccounts/%2e%2e/token)", async () => {
  expect(await answer("POST", "/api/v1/namespaces/default/serviceaccounts/%2e%2e/token")).toEqual(badName("..", "may not be '..'"));
});
