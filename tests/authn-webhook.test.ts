/** Token webhook: a TokenReview server on loopback decides; decisions are cached; a webhook that is down means 401. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type HttpsFixture, startHttpsFixture, writeWebhookKubeconfig } from "./_https-fixture.ts";
import { kubectlAs } from "./_token-kubectl.ts";
import { startServer, type TestServer } from "./harness.ts";

let server: TestServer;
let webhook: HttpsFixture;
const reviews: { apiVersion: string; spec: { token: string; audiences?: string[] } }[] = [];

const DECISIONS: Record<string, unknown> = {
  "wendy-token": { authenticated: true, user: { username: "wendy", uid: "42", groups: ["ops"] } },
  "revoked-token": { authenticated: false, error: "token revoked" },
  "unknown-token": { authenticated: false },
};

beforeAll(async () => {
  webhook = await startHttpsFixture(async (request) => {
    const review = await request.json();
    reviews.push(review);
    const status = DECISIONS[review.spec.token] ?? { authenticated: false };
    return Response.json({ apiVersion: review.apiVersion, kind: "TokenReview", status });
  });
  const config = join(await mkdtemp(join(tmpdir(), "kubun-webhook-")), "webhook.kubeconfig");
  await writeWebhookKubeconfig(config, { server: `${webhook.url}/review`, caPem: webhook.caPem });
  server = await startServer(["--authorization-mode=AlwaysDeny", `--authentication-token-webhook-config-file=${config}`]);
});
afterAll(async () => {
  await server?.stop();
  await webhook?.stop();
});

function listNamespacesWith(token: string): Promise<Response> {
  return server.requestAnonymous("GET", "/api/v1/namespaces", { headers: { Authorization: `Bearer ${token}` } });
}

test("a token the webhook accepts makes kubectl act as the user it names, sent as a v1beta1 TokenReview", async () => {
  const asWendy = await kubectlAs(server, { token: "wendy-token" });
  const result = await asWendy(["get", "--raw", "/api/v1/namespaces"]);
  expect(result.stderr).toContain('User "wendy" cannot list resource "namespaces"');
  expect(reviews[0]).toMatchObject({
    apiVersion: "authentication.k8s.io/v1beta1",
    spec: { token: "wendy-token", audiences: ["https://kubernetes.default.svc.cluster.local"] },
  });
});

test("a token the webhook rejects, with or without an error text, is 401", async () => {
  expect((await listNamespacesWith("revoked-token")).status).toBe(401);
  const answer = await listNamespacesWith("unknown-token");
  expect(answer.status).toBe(401);
  expect((await answer.json()).message).toBe("Unauthorized");
});

test("decisions are cached: the same token again within the TTL is not sent to the webhook", async () => {
  const before = webhook.requests;
  expect((await listNamespacesWith("revoked-token")).status).toBe(401);
  expect((await listNamespacesWith("wendy-token")).status).toBe(403);
  expect(webhook.requests).toBe(before);
});

test("a webhook that is down makes a new token 401", async () => {
  await webhook.stop();
  expect((await listNamespacesWith("fresh-token")).status).toBe(401);
});
