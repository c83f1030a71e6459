/** OpenID Connect: an https issuer on loopback (discovery + JWKS) signs ID tokens with jose; kubectl uses them. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { type HttpsFixture, startHttpsFixture } from "./_https-fixture.ts";
import { kubectlAs } from "./_token-kubectl.ts";
import { startServer, type TestServer } from "./harness.ts";

let server: TestServer;
let issuer: HttpsFixture;
let signingKey: CryptoKey;

beforeAll(async () => {
  const keys = await generateKeyPair("RS256");
  signingKey = keys.privateKey;
  const jwk = { ...(await exportJWK(keys.publicKey)), kid: "key-1", alg: "RS256", use: "sig" };
  issuer = await startHttpsFixture((request) => {
    const path = new URL(request.url).pathname;
    if (path === "/.well-known/openid-configuration") return Response.json({ issuer: issuer.url, jwks_uri: `${issuer.url}/keys` });
    if (path === "/keys") return Response.json({ keys: [jwk] });
    return new Response("not found", { status: 404 });
  });
  const caFile = join(await mkdtemp(join(tmpdir(), "kubun-oidc-")), "issuer-ca.crt");
  await writeFile(caFile, issuer.caPem);
  server = await startServer([
    "--authorization-mode=AlwaysDeny",
    `--oidc-issuer-url=${issuer.url}`,
    "--oidc-client-id=kubun",
    `--oidc-ca-file=${caFile}`,
    "--oidc-username-claim=email",
    "--oidc-groups-claim=groups",
    "--oidc-groups-prefix=oidc:",
  ]);
});
afterAll(async () => {
  await server?.stop();
  await issuer?.stop();
});

function idToken(claims: { audience?: string; expiresInSeconds?: number } = {}): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ email: "carol@example.com", email_verified: true, groups: ["admins"] })
    .setProtectedHeader({ alg: "RS256", kid: "key-1" })
    .setIssuer(issuer.url)
    .setSubject("carol")
    .setAudience(claims.audience ?? "kubun")
    .setIssuedAt(now - 600)
    .setExpirationTime(now + (claims.expiresInSeconds ?? 600))
    .sign(signingKey);
}

async function namespacesWith(token: string) {
  return (await kubectlAs(server, { token }))(["get", "--raw", "/api/v1/namespaces"]);
}

test("a valid ID token makes kubectl act as the user of its email claim", async () => {
  const result = await namespacesWith(await idToken());
  expect(result.stderr).toContain('User "carol@example.com" cannot list resource "namespaces"');
  expect(issuer.requests).toBe(2);
});

test("an ID token for another client id is 401", async () => {
  expect((await namespacesWith(await idToken({ audience: "someone-else" }))).stderr).toContain("Unauthorized");
});

test("an expired ID token is 401", async () => {
  expect((await namespacesWith(await idToken({ expiresInSeconds: -120 }))).stderr).toContain("Unauthorized");
});
