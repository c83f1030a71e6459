/**
 * Hostile paths: "." and ".." segments, plain or percent-encoded, are not resolved to the parent path (kube's
 * server routes the path as sent); as a name they fail kube's NamespaceKeyFunc / NoNamespaceKeyFunc check
 * (path.IsValidPathSegmentName) with 400, and nothing is read or changed. Runs of slashes are not merged either:
 * kube's splitPath and go-restful's tokenizePath drop the slashes at either end only.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startServer, type TestServer } from "./harness.ts";
import { kubectlOk } from "./_kubectl.ts";
import { rawExchange, rawRequest } from "./_raw-request.ts";

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

const NOT_FOUND = { status: 404, message: "the server could not find the requested resource" };

test("splitPath: GET, POST and a watch on namespaces/default//configmaps are go-restful's 404 (no route has an empty segment there), and nothing is created", async () => {
  expect(await answer("GET", "/api/v1/namespaces/default//configmaps")).toEqual(NOT_FOUND);
  expect(await answer("GET", "/api/v1/namespaces/default//configmaps?watch=1&timeoutSeconds=1")).toEqual(NOT_FOUND);
  const { hostname, port } = new URL(server.url);
  const body = JSON.stringify({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "slashed" } });
  const reply = await rawExchange(
    server,
    `POST /api/v1/namespaces/default//configmaps HTTP/1.1\r\nHost: ${hostname}:${port}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
  );
  expect(reply.toString().split(" ")[1]).toBe("404");
  expect(await kubectlOk(server, ["get", "configmaps", "-o", "name"])).not.toContain("slashed");
  expect(await answer("GET", "/api//v1/namespaces")).toEqual(NOT_FOUND);
  expect(await answer("GET", "/api/v1/./namespaces")).toEqual(NOT_FOUND);
});

test('an empty namespace segment is go-restful\'s {namespace} matched by "": the list across all namespaces, as ScopeNamer.Namespace gives it', async () => {
  const { status, body } = await rawRequest(server, "GET", "/api/v1/namespaces//configmaps");
  expect(status).toBe(200);
  const names = JSON.parse(body).items.map((item: { metadata: { namespace: string; name: string } }) =>
    `${item.metadata.namespace}/${item.metadata.name}`
  );
  expect(names).toContain("default/kept");
  expect(names).toContain("kube-system/kube-root-ca.crt");
});

test("NamespaceKeyFunc: an item under an empty namespace segment is 400 Namespace parameter required., and nothing is deleted", async () => {
  const required = { status: 400, message: "Namespace parameter required." };
  expect(await answer("GET", "/api/v1/namespaces//configmaps/kept")).toEqual(required);
  expect(await answer("DELETE", "/api/v1/namespaces//configmaps/kept")).toEqual(required);
  expect(await kubectlOk(server, ["get", "configmap", "kept", "-o", "name"])).toBe("configmap/kept\n");
  expect(await answer("GET", "/api/v1/configmaps/kept")).toEqual(NOT_FOUND);
});

test("errEmptyName: a subresource path with an empty name (pods//status) is 400 name must be provided", async () => {
  expect(await answer("GET", "/api/v1/namespaces/default/pods//status")).toEqual({ status: 400, message: "name must be provided" });
  expect(await answer("GET", "/api/v1/namespaces//status")).toEqual({ status: 400, message: "name must be provided" });
});

test("CurlyRouter.detectRoute before errEmptyName: a method an empty-name path's route lacks is 405, not 400", async () => {
  const notAllowed = { status: 405, message: "the server does not allow this method on the requested resource" };
  expect(await answer("POST", "/api/v1/namespaces/default/pods//status")).toEqual(notAllowed);
  expect(await answer("GET", "/api/v1/namespaces//finalize")).toEqual(notAllowed);
  for (const method of ["GET", "PUT", "DELETE", "PATCH"]) {
    expect(await answer(method, "/api/v1/namespaces/default/serviceaccounts//token")).toEqual(notAllowed);
  }
  for (const method of ["PUT", "DELETE", "PATCH"]) {
    expect(await answer(method, "/api/v1/namespaces/default/pods//exec")).toEqual(notAllowed);
  }
  expect(await answer("POST", "/api/v1/namespaces//configmaps/x1")).toEqual(notAllowed);
});

test("PatchResource checks the patch type before its Namer and the store key: application/json is 415 on namespaces//configmaps/x1 and pods//status", async () => {
  for (const path of ["/api/v1/namespaces//configmaps/x1", "/api/v1/namespaces/default/pods//status"]) {
    const reply = (await rawExchange(
      server,
      `PATCH ${path} HTTP/1.1\r\nHost: x\r\nAccept: application/json\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`,
    )).toString();
    expect(reply.split(" ")[1]).toBe("415");
  }
});

test("NamespaceKeyFunc in TokenREST.Create's account Get: POST namespaces//serviceaccounts/sa1/token is 400 Namespace parameter required.", async () => {
  const body = JSON.stringify({ apiVersion: "authentication.k8s.io/v1", kind: "TokenRequest", spec: {} });
  const reply = (await rawExchange(
    server,
    `POST /api/v1/namespaces//serviceaccounts/sa1/token HTTP/1.1\r\nHost: x\r\nAccept: application/json\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
  )).toString();
  expect(reply.split(" ")[1]).toBe("400");
  expect(JSON.parse(reply.slice(reply.indexOf("\r\n\r\n") + 4)).message).toBe("Namespace parameter required.");
});

test("slashes at the ends: a trailing run is trimmed (tokenizePath) and the list served; a leading // matches no webservice (director) and is 404", async () => {
  const { status, body } = await rawRequest(server, "GET", "/api/v1/namespaces/default/configmaps//");
  expect(status).toBe(200);
  expect(JSON.parse(body).kind).toBe("ConfigMapList");
  expect(await answer("GET", "//api/v1/namespaces/default/configmaps")).toEqual(NOT_FOUND);
});
