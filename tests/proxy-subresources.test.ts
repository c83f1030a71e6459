/**
 * services/proxy, pods/proxy and nodes/proxy end to end: a Service whose hand-made Endpoints name a pod at
 * 127.0.0.1 is reached through `kubectl get --raw .../services/S:port/proxy/...` (all of kube's "[scheme:]name[:port]"
 * forms, http and https backends), with kube's ResourceLocation answers where it refuses (isValidAddress,
 * IsGlobalUnicast for pod IPs, no endpoints, a failed dial) and the subresource's own RBAC verbs.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Server } from "bun";
import { startServer, type TestServer } from "./harness.ts";
import { kubectlOk } from "./_kubectl.ts";
import { expectStatus, sendJson } from "./_api.ts";
import { type HttpsFixture, startHttpsFixture } from "./_https-fixture.ts";
import { createUser, type TestUser } from "./_users.ts";

let server: TestServer;
let backend: Server<undefined>;
let secureBackend: HttpsFixture;
let closedPort: number;
let viewer: TestUser;

const echo = async (request: Request, via: string) => {
  const url = new URL(request.url);
  if (url.pathname === "/redirect") {
    return new Response(null, { status: 302, headers: { Location: "/landing", "Access-Control-Allow-Origin": "*" } });
  }
  const body = request.method === "POST" ? await request.text() : "";
  return Response.json({
    via,
    method: request.method,
    path: url.pathname,
    query: url.search,
    body,
    authorization: request.headers.get("authorization"),
    forwardedUri: request.headers.get("x-forwarded-uri"),
  });
};

const NS = "/api/v1/namespaces/default";

beforeAll(async () => {
  backend = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (request) => echo(request, "http") });
  secureBackend = await startHttpsFixture((request) => echo(request, "https"));
  const spare = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("") });
  closedPort = spare.port!;
  spare.stop(true);
  server = await startServer(["--authorization-mode=RBAC"]);
  const securePort = new URL(secureBackend.url).port;
  await kubectlOk(
    server,
    ["apply", "-f", "-"],
    `
apiVersion: v1
kind: Pod
metadata: {name: backend}
spec:
  schedulerName: nobody
  containers: [{name: app, image: app:1, ports: [{containerPort: ${backend.port}}]}]
---
apiVersion: v1
kind: Service
metadata: {name: web}
spec:
  ports:
  - {name: http, port: 80}
  - {name: https, port: 443}
  - {name: closed, port: 81}
---
apiVersion: v1
kind: Endpoints
metadata: {name: web}
subsets:
- addresses: [{ip: 127.0.0.1, targetRef: {kind: Pod, namespace: default, name: backend}}]
  ports:
  - {name: http, port: ${backend.port}}
  - {name: https, port: ${securePort}}
  - {name: closed, port: ${closedPort}}
---
apiVersion: v1
kind: Service
metadata: {name: stray}
spec:
  ports: [{port: 80}]
---
apiVersion: v1
kind: Endpoints
metadata: {name: stray}
subsets:
- addresses: [{ip: 127.0.0.1}]
  ports: [{port: ${backend.port}}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: proxy-reader}
rules:
- {apiGroups: [""], resources: [services/proxy], verbs: [get]}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: proxy-reader}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: proxy-reader}
subjects: [{kind: User, name: viewer}]
`,
  );
  const status = await sendJson(server, "PATCH", `${NS}/pods/backend/status`, {
    status: { podIP: "127.0.0.1", podIPs: [{ ip: "127.0.0.1" }] },
  }, "application/merge-patch+json");
  expect(status.status).toBe(200);
  viewer = await createUser(server, "viewer");
});
afterAll(async () => {
  await server?.stop();
  backend?.stop(true);
  await secureBackend?.stop();
});

test("services/proxy (ResourceLocation) reaches the endpoint by port number, port name and http: scheme, keeping path and query", async () => {
  for (const id of ["web:80", "web:http", "http:web:80"]) {
    const answer = JSON.parse(await kubectlOk(server, ["get", "--raw", `${NS}/services/${id}/proxy/hello/world?x=1`]));
    expect(answer).toEqual({
      via: "http",
      method: "GET",
      path: "/hello/world",
      query: "?x=1",
      body: "",
      authorization: null,
      forwardedUri: `${NS}/services/${id}/proxy/hello/world`,
    });
  }
  const root = JSON.parse(await kubectlOk(server, ["get", "--raw", `${NS}/services/web:80/proxy/`]));
  expect(root.path).toBe("/");
});

test("proxy Transport: a redirect to the backend's own path is rewritten under the proxy path, CORS headers dropped", async () => {
  const answer = await server.request("GET", `${NS}/services/web:80/proxy/redirect`, { signal: AbortSignal.timeout(10_000) });
  expect(answer.redirected).toBe(true);
  expect(await answer.json()).toMatchObject({ path: "/landing", forwardedUri: `${NS}/services/web:80/proxy/landing` });
  const raw = await server.request("GET", `${NS}/services/web:80/proxy/redirect`, { redirect: "manual" });
  expect(raw.status).toBe(302);
  expect(raw.headers.get("location")).toBe(`${NS}/services/web:80/proxy/landing`);
  expect(raw.headers.get("access-control-allow-origin")).toBeNull();
});

test("services/proxy with the https: scheme talks TLS to the endpoint", async () => {
  const answer = JSON.parse(await kubectlOk(server, ["get", "--raw", `${NS}/services/https:web:443/proxy/secure`]));
  expect(answer).toMatchObject({ via: "https", path: "/secure" });
});

test("services/proxy forwards other methods and their bodies", async () => {
  const answer = await server.request("POST", `${NS}/services/web:80/proxy/submit`, {
    body: "payload",
    headers: { "Content-Type": "text/plain" },
  });
  expect(answer.status).toBe(200);
  expect(await answer.json()).toMatchObject({ method: "POST", path: "/submit", body: "payload" });
});

test("isValidAddress: an endpoint address without a pod holding its IP is skipped, so kube answers 503", async () => {
  expectStatus(
    await sendJson(server, "GET", `${NS}/services/stray:80/proxy/`),
    503,
    "ServiceUnavailable",
    'no endpoints available for service "stray:80"',
  );
});

test("services/proxy: unknown port, missing service and bad names get kube's answers", async () => {
  expectStatus(
    await sendJson(server, "GET", `${NS}/services/web:9999/proxy/`),
    503,
    "ServiceUnavailable",
    'no service port 9999 found for service "web"',
  );
  expectStatus(await sendJson(server, "GET", `${NS}/services/ghost:80/proxy/`), 404, "NotFound", 'services "ghost" not found');
  expectStatus(
    await sendJson(server, "GET", `${NS}/services/ftp:web:80/proxy/`),
    400,
    "BadRequest",
    'invalid service request "ftp:web:80"',
  );
});

test("a failed round trip is kube's 500 'error trying to reach service'", async () => {
  const answer = await sendJson(server, "GET", `${NS}/services/web:81/proxy/`);
  expect(answer.status).toBe(500);
  expect(answer.body).toMatchObject({
    kind: "Status",
    status: "Failure",
    code: 500,
    message: `error trying to reach service: dial tcp 127.0.0.1:${closedPort}: connect: connection refused`,
  });
});

test("pods/proxy: pod.ResourceLocation refuses a pod IP that is not global unicast (loopback)", async () => {
  expectStatus(await sendJson(server, "GET", `${NS}/pods/backend:${backend.port}/proxy/`), 400, "BadRequest", "address not allowed");
  expectStatus(await sendJson(server, "GET", `${NS}/pods/ghost/proxy/`), 404, "NotFound", 'pods "ghost" not found');
  expectStatus(await sendJson(server, "GET", `${NS}/pods/a:b:c:d/proxy/`), 400, "BadRequest", 'invalid pod request "a:b:c:d"');
});

test("nodes/proxy: a missing node is 404, a loopback node address is refused (isProxyableHostname), and no node agent is ever reached", async () => {
  expectStatus(await sendJson(server, "GET", "/api/v1/nodes/ghost/proxy/metrics"), 404, "NotFound", 'nodes "ghost" not found');
  await kubectlOk(
    server,
    ["apply", "-f", "-"],
    `
apiVersion: v1
kind: Node
metadata: {name: worker}
status:
  addresses: [{type: InternalIP, address: 192.0.2.10}]
`,
  );
  const answer = await sendJson(server, "GET", "/api/v1/nodes/worker/proxy/metrics");
  expect(answer.status).toBe(500);
  expect(answer.body.message).toStartWith("error trying to reach service: ");
  await kubectlOk(
    server,
    ["apply", "-f", "-"],
    `
apiVersion: v1
kind: Node
metadata: {name: local}
status:
  addresses: [{type: InternalIP, address: 127.0.0.1}]
`,
  );
  expectStatus(await sendJson(server, "GET", "/api/v1/nodes/local/proxy/metrics"), 400, "BadRequest", "address not allowed");
});

test("authorization uses the subresource's verb: get services/proxy allows GET, not POST", async () => {
  const allowed = await viewer.kubectl(["get", "--raw", `${NS}/services/web:80/proxy/ok`]);
  expect(allowed.code).toBe(0);
  expect(JSON.parse(allowed.stdout).path).toBe("/ok");
  const denied = await viewer.kubectl(["create", "--raw", `${NS}/services/web:80/proxy/ok`, "-f", "-"], { stdin: "{}" });
  expect(denied.code).not.toBe(0);
  expect(denied.stderr).toContain('cannot create resource "services/proxy"');
});
