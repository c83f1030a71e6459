/**
 * Methods a path's routes lack are go-restful's 405 (CurlyRouter.detectRoute), answered by kube's
 * serviceErrorHandler as NewGenericServerResponse(405) before any handler runs: the installer
 * (registerResourceHandlers) gives a collection GET, POST and DELETE, an item GET, PUT, PATCH and DELETE, and a
 * subresource the verbs its storage implements. Nothing is created or changed.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startServer, type TestServer } from "./harness.ts";
import { kubectlOk } from "./_kubectl.ts";
import { rawExchange } from "./_raw-request.ts";

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
  await kubectlOk(server, ["create", "namespace", "t2"]);
});
afterAll(() => server?.stop());

const METHOD_NOT_ALLOWED = {
  status: 405,
  body: {
    kind: "Status",
    apiVersion: "v1",
    metadata: {},
    status: "Failure",
    message: "the server does not allow this method on the requested resource",
    reason: "MethodNotAllowed",
    details: {},
    code: 405,
  },
};

/** One request with a JSON body, answered with its status and parsed Status body. */
async function send(method: string, path: string, body: object, contentType = "application/json") {
  const text = JSON.stringify(body);
  const reply = await rawExchange(
    server,
    `${method} ${path} HTTP/1.1\r\nHost: x\r\nAccept: application/json\r\nContent-Type: ${contentType}\r\nContent-Length: ${text.length}\r\nConnection: close\r\n\r\n${text}`,
  );
  const raw = reply.toString();
  const answer = raw.slice(raw.indexOf("\r\n\r\n") + 4);
  return { status: Number(raw.split(" ")[1]), body: JSON.parse(answer) };
}

const configMap = (name: string) => ({ apiVersion: "v1", kind: "ConfigMap", metadata: { name } });

test("CurlyRouter.detectRoute: POST on an item path is 405 (no POST route on {name}), and the object named in the body is not created", async () => {
  expect(await send("POST", "/api/v1/namespaces/t2/configmaps/other", configMap("made"))).toEqual(METHOD_NOT_ALLOWED);
  expect(await send("POST", "/api/v1/namespaces/t2", { apiVersion: "v1", kind: "Namespace", metadata: { name: "t3" } })).toEqual(
    METHOD_NOT_ALLOWED,
  );
  expect(await kubectlOk(server, ["get", "configmaps", "-n", "t2", "-o", "name"])).not.toContain("made");
  expect(await kubectlOk(server, ["get", "namespaces", "-o", "name"])).not.toContain("namespace/t3");
});

test("CurlyRouter.detectRoute: PUT and PATCH on a collection path are 405 (the collection has GET, POST and DELETE only)", async () => {
  expect(await send("PUT", "/api/v1/namespaces/t2/configmaps", configMap("put"))).toEqual(METHOD_NOT_ALLOWED);
  expect(await send("PATCH", "/api/v1/namespaces/t2/configmaps", {}, "application/merge-patch+json")).toEqual(METHOD_NOT_ALLOWED);
  expect(await send("PUT", "/api/v1/nodes", { apiVersion: "v1", kind: "Node", metadata: { name: "n" } })).toEqual(METHOD_NOT_ALLOWED);
});

test("CurlyRouter.detectRoute: a subresource answers 405 for the methods its storage lacks (pods/status, serviceaccounts/token, pods/exec)", async () => {
  expect(await send("POST", "/api/v1/namespaces/t2/pods/p/status", {})).toEqual(METHOD_NOT_ALLOWED);
  expect(await send("GET", "/api/v1/namespaces/t2/serviceaccounts/default/token", {})).toEqual(METHOD_NOT_ALLOWED);
  expect(await send("PUT", "/api/v1/namespaces/t2/pods/p/exec", {})).toEqual(METHOD_NOT_ALLOWED);
});
