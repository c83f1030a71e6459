/**
 * A GET of one object on SQLite is answered without a promise once nothing on its path waits (the chain's stages, the
 * token authenticator on a verified token with its ServiceAccount cached, RBAC's in-memory decision, the store's
 * synchronous read, the GET handler): kube's jwtTokenAuthenticator.AuthenticateToken checks and RBACAuthorizer.Authorize
 * decisions still run per request, and the answers are the same as when something waits.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createCertificateAuthority } from "./certificates.ts";
import { type InProcessServer, type RequestOptions, startInProcess } from "./testing.ts";

const CONFIGMAP = "/api/v1/namespaces/default/configmaps/settings";
let server: InProcessServer;

beforeAll(async () => {
  server = await startInProcess(["--authorization-mode=Node,RBAC"]);
  const created = await server.request("POST", "/api/v1/namespaces/default/configmaps", {
    body: { metadata: { name: "settings" }, data: { mode: "fast" } },
  });
  expect(created.status).toBe(201);
});

afterAll(() => server.stop());

/**
 * The answer once the path's caches are warm: a few requests may wait (a first signature check, the cache's fill).
 * Wrapped, as an async function would flatten a promise it returned.
 */
async function warmAnswer(path: string, options: RequestOptions): Promise<{ answer: Response | Promise<Response> }> {
  let answer = server.answer("GET", path, options);
  for (let attempt = 0; attempt < 20 && answer instanceof Promise; attempt++) {
    await answer;
    answer = server.answer("GET", path, options);
  }
  return { answer };
}

/** The warm answer, which must be a Response: a promise means something on the path waited. */
async function answeredAtOnce(path: string, options: RequestOptions): Promise<Response> {
  const { answer } = await warmAnswer(path, options);
  expect(answer).toBeInstanceOf(Response);
  return answer as Response;
}

async function serviceAccountToken(name: string, role: string): Promise<string> {
  expect((await server.json("POST", "/api/v1/namespaces/default/serviceaccounts", { body: { metadata: { name } } })).status).toBe(201);
  const binding = {
    metadata: { name },
    roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: role },
    subjects: [{ kind: "ServiceAccount", name, namespace: "default" }],
  };
  expect((await server.json("POST", "/apis/rbac.authorization.k8s.io/v1/clusterrolebindings", { body: binding })).status).toBe(201);
  const review = await server.json("POST", `/api/v1/namespaces/default/serviceaccounts/${name}/token`, { body: { spec: {} } });
  expect(review.status).toBe(201);
  return review.body.status.token;
}

test("a GET with a client certificate is answered at once, with the stored object and its resourceVersion", async () => {
  const answer = await answeredAtOnce(CONFIGMAP, { headers: { Accept: "application/json" } });
  const body = await answer.json();
  expect(answer.status).toBe(200);
  expect(body).toMatchObject({ kind: "ConfigMap", metadata: { name: "settings" }, data: { mode: "fast" } });
  expect(body.metadata.resourceVersion).toMatch(/^\d+$/);
});

test("a GET with a ServiceAccount token (jwtTokenAuthenticator, RBACAuthorizer.Authorize) is answered at once", async () => {
  const token = await serviceAccountToken("reader", "view");
  const answer = await answeredAtOnce(CONFIGMAP, { user: null, headers: { Accept: "application/json", Authorization: `Bearer ${token}` } });
  expect(answer.status).toBe(200);
});

test("answered at once, a refusal is still RBAC's 403 and a missing object still a 404", async () => {
  const token = await serviceAccountToken("nobody", "system:basic-user");
  const refused = await answeredAtOnce(CONFIGMAP, { user: null, headers: { Authorization: `Bearer ${token}` } });
  const status = await refused.json();
  expect(status).toMatchObject({ code: 403, reason: "Forbidden" });
  expect(status.message).toBe(
    'configmaps "settings" is forbidden: User "system:serviceaccount:default:nobody" cannot get resource "configmaps" in API group "" in the namespace "default"',
  );
  const missing = await answeredAtOnce("/api/v1/namespaces/default/configmaps/absent", {});
  expect(await missing.json()).toMatchObject({ code: 404, reason: "NotFound", message: 'configmaps "absent" not found' });
});

test("a token of a deleted ServiceAccount stops working at the next request, on the path that answers at once", async () => {
  const token = await serviceAccountToken("leaving", "view");
  const headers = { Authorization: `Bearer ${token}` };
  expect((await answeredAtOnce(CONFIGMAP, { user: null, headers })).status).toBe(200);
  expect((await server.request("DELETE", "/api/v1/namespaces/default/serviceaccounts/leaving")).status).toBe(200);
  const after = await server.request("GET", CONFIGMAP, { user: null, headers });
  expect(after.status).toBe(401);
});

test("behind an authenticating proxy's CA (the binary's default), a GET with a client certificate is still answered at once", async () => {
  const dir = await mkdtemp(join(tmpdir(), "kubun-front-proxy-"));
  const caFile = join(dir, "front-proxy-ca.crt");
  await writeFile(caFile, (await createCertificateAuthority("front-proxy-ca", { days: 1 })).certPem);
  const proxied = await startInProcess(["--authorization-mode=Node,RBAC", `--requestheader-client-ca-file=${caFile}`]);
  try {
    const path = "/api/v1/namespaces/default/configmaps/proxied";
    const created = await proxied.request("POST", "/api/v1/namespaces/default/configmaps", { body: { metadata: { name: "proxied" } } });
    expect(created.status).toBe(201);
    let answer = proxied.answer("GET", path);
    for (let attempt = 0; attempt < 20 && answer instanceof Promise; attempt++) {
      await answer;
      answer = proxied.answer("GET", path);
    }
    expect(answer).toBeInstanceOf(Response);
    expect((answer as Response).status).toBe(200);
  } finally {
    await proxied.stop();
    await rm(dir, { recursive: true, force: true });
  }
});
