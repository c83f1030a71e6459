/** Service account tokens with the real kubectl: TokenRequest, using the token, revocation by deletion, issuer discovery. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { decodeJwt } from "jose";
import { sendJson } from "./_api.ts";
import { kubectlAs } from "./_token-kubectl.ts";
import { startServer, type TestServer } from "./harness.ts";
import { kubectlOk } from "./_kubectl.ts";

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});

test("kubectl create token mints a token kubectl can use until the service account is deleted", async () => {
  await kubectlOk(server, ["create", "serviceaccount", "bob"]);
  const token = (await kubectlOk(server, ["create", "token", "bob", "--duration", "15m"])).trim();
  const claims = decodeJwt(token);
  expect(claims).toMatchObject({
    iss: "https://kubernetes.default.svc.cluster.local",
    sub: "system:serviceaccount:default:bob",
    aud: ["https://kubernetes.default.svc.cluster.local"],
  });
  expect(claims.exp! - claims.iat!).toBe(900);
  const asBob = await kubectlAs(server, { token });
  expect((await asBob(["get", "namespaces", "-o", "name"])).stdout).toContain("namespace/default");
  await kubectlOk(server, ["delete", "serviceaccount", "bob"]);
  const denied = await asBob(["get", "namespaces"]);
  expect(denied.code).not.toBe(0);
  expect(denied.stderr).toContain("Unauthorized");
});

test("a pod-bound token stops working when the pod is deleted", async () => {
  await kubectlOk(server, ["create", "serviceaccount", "runner"]);
  const pod = {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name: "job" },
    spec: { serviceAccountName: "runner", containers: [{ name: "main", image: "busybox" }] },
  };
  expect((await sendJson(server, "POST", "/api/v1/namespaces/default/pods", pod)).status).toBe(201);
  const token = (await kubectlOk(server, ["create", "token", "runner", "--bound-object-kind", "Pod", "--bound-object-name", "job"])).trim();
  expect(decodeJwt(token)["kubernetes.io"]).toMatchObject({
    namespace: "default",
    pod: { name: "job" },
    serviceaccount: { name: "runner" },
  });
  const asRunner = await kubectlAs(server, { token });
  expect((await asRunner(["get", "serviceaccounts", "-o", "name"])).code).toBe(0);
  await kubectlOk(server, ["delete", "pod", "job", "--wait=false"]);
  expect((await asRunner(["get", "serviceaccounts"])).stderr).toContain("Unauthorized");
});

test("TokenRequest answers 201 with the token and its expiry, and rejects a lifetime under 10 minutes", async () => {
  await kubectlOk(server, ["create", "serviceaccount", "short"]);
  const path = "/api/v1/namespaces/default/serviceaccounts/short/token";
  const created = await sendJson(server, "POST", path, {
    apiVersion: "authentication.k8s.io/v1",
    kind: "TokenRequest",
    spec: { audiences: ["vault"] },
  });
  expect(created.status).toBe(201);
  expect(created.body).toMatchObject({
    kind: "TokenRequest",
    metadata: { name: "short", namespace: "default" },
    spec: { audiences: ["vault"], expirationSeconds: 3600 },
  });
  expect(Date.parse(created.body.status.expirationTimestamp) - Date.now()).toBeGreaterThan(3500_000);
  const tooShort = await sendJson(server, "POST", path, { spec: { expirationSeconds: 60 } });
  expect(tooShort.status).toBe(422);
  expect(tooShort.body.message).toBe(
    'TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes',
  );
  // A token for another audience is not valid for the API server.
  const asVault = await kubectlAs(server, { token: created.body.status.token });
  expect((await asVault(["get", "namespaces"])).stderr).toContain("Unauthorized");
});

test("issuer discovery serves the OpenID configuration and the JWKS that verifies the tokens", async () => {
  const config = await server.request("GET", "/.well-known/openid-configuration");
  expect(config.headers.get("content-type")).toBe("application/json");
  expect(config.headers.get("cache-control")).toBe("public, max-age=3600");
  const document = await config.json();
  expect(document).toEqual({
    issuer: "https://kubernetes.default.svc.cluster.local",
    jwks_uri: `${server.url}/openid/v1/jwks`,
    response_types_supported: ["id_token"],
    subject_types_supported: ["public"],
    id_token_signing_alg_values_supported: ["ES256"],
  });
  const jwks = await server.request("GET", "/openid/v1/jwks");
  expect(jwks.headers.get("content-type")).toBe("application/jwk-set+json");
  const token = (await kubectlOk(server, ["create", "token", "short"])).trim();
  const { keys } = await jwks.json();
  expect(keys.map((k: { kid: string }) => k.kid)).toContain(JSON.parse(atob(token.split(".")[0]!)).kid);
  expect((await server.requestAnonymous("GET", "/openid/v1/jwks")).status).toBe(401);
});
