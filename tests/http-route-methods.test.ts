/**
 * Methods a path's routes lack are go-restful's 405 (CurlyRouter.detectRoute), answered by kube's
 * serviceErrorHandler as NewGenericServerResponse(405) before any handler runs: the installer
 * (registerResourceHandlers) gives a collection GET, POST and DELETE, an item GET, PUT, PATCH and DELETE, and a
 * subresource the verbs its storage implements. Nothing is created or changed.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startServer, type TestServer } from "./harness.ts";
import { kubectlOk } from "./_kubectl.ts";
import { rawExchange, rawSend } from "./_raw-request.ts";

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

const NOT_FOUND = {
  status: 404,
  body: {
    kind: "Status",
    apiVersion: "v1",
    metadata: {},
    status: "Failure",
    message: "the server could not find the requested resource",
    reason: "NotFound",
    details: {},
    code: 404,
  },
};

test("registerResourceHandlers adds no route for verbs the type lacks: a path shape without routes is CurlyRouter.detectRoute's 404 for every method", async () => {
  const reviewItem = "/apis/authentication.k8s.io/v1/tokenreviews/x";
  for (const method of ["POST", "OPTIONS", "GET"]) expect(await send(method, reviewItem, {})).toEqual(NOT_FOUND);
  for (const method of ["GET", "PUT", "PATCH", "DELETE"]) {
    expect(await send(method, "/api/v1/namespaces/t2/bindings/x", {}, "application/merge-patch+json")).toEqual(NOT_FOUND);
  }
  // A namespaced type without list has no all-namespaces route; a cluster-scoped one has no namespaced route.
  expect(await send("POST", "/api/v1/bindings", {})).toEqual(NOT_FOUND);
  expect(await send("POST", "/api/v1/namespaces/t2/nodes/x", {})).toEqual(NOT_FOUND);
  // WATCHLIST needs list and watch: componentstatuses has no watch.
  expect(await send("GET", "/api/v1/watch/componentstatuses", {})).toEqual(NOT_FOUND);
});

test("serviceErrorHandler: routes without the method answer go-restful's generic 405, not a verb-not-supported text", async () => {
  expect(await send("POST", "/api/v1/componentstatuses", {})).toEqual(METHOD_NOT_ALLOWED);
  expect(await send("GET", "/api/v1/namespaces/t2/bindings", {})).toEqual(METHOD_NOT_ALLOWED);
  expect(await send("GET", "/apis/authorization.k8s.io/v1/namespaces/t2/localsubjectaccessreviews", {})).toEqual(METHOD_NOT_ALLOWED);
  expect(await send("DELETE", "/api/v1/namespaces", {})).toEqual(METHOD_NOT_ALLOWED);
  expect(await kubectlOk(server, ["get", "namespace", "t2", "-o", "name"])).toContain("namespace/t2");
});

test("WATCH and WATCHLIST are GET routes only (ws.GET(action.Path)): other methods on a watch/ path are 405 and open no watch", async () => {
  // timeoutSeconds ends a watch that wrongly opens, so the test fails rather than hangs.
  for (const path of ["/api/v1/watch/namespaces/t2/pods?timeoutSeconds=1", "/api/v1/watch/namespaces/t2/configmaps/x?timeoutSeconds=1"]) {
    for (const method of ["POST", "PUT", "PATCH", "DELETE", "OPTIONS"]) {
      const { status, body } = await rawSend(server, method, path, "identity", { contentType: "application/merge-patch+json", text: "{}" });
      expect({ status, body: JSON.parse(body.toString()) }).toEqual(METHOD_NOT_ALLOWED);
    }
  }
});
