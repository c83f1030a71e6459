/**
 * Webhook authorization end to end (--authorization-mode=Webhook,RBAC) against a SubjectAccessReview server on
 * loopback: its allow and deny decide, its no opinion and its outage fall through to RBAC, else 403.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import { type HttpsFixture, startHttpsFixture, writeWebhookKubeconfig } from "./_https-fixture.ts";
import { startServer, type TestServer } from "./harness.ts";
import { createUser } from "./_users.ts";
import { scratchDir } from "./_authn.ts";

interface Review {
  apiVersion: string;
  spec: { user: string; group?: string[]; resourceAttributes?: Record<string, string> };
}

const DECISIONS: Record<string, Record<string, unknown>> = {
  wanda: { allowed: true },
  dennis: { allowed: false, denied: true, reason: "dennis is blocked by policy" },
};

let server: TestServer;
let webhook: HttpsFixture;
let scratch: Awaited<ReturnType<typeof scratchDir>>;
const reviews: Review[] = [];

beforeAll(async () => {
  scratch = await scratchDir();
  webhook = await startHttpsFixture(async (request) => {
    const review = (await request.json()) as Review;
    reviews.push(review);
    const status = DECISIONS[review.spec.user] ?? { allowed: false, reason: "not my user" };
    return Response.json({ apiVersion: review.apiVersion, kind: "SubjectAccessReview", status });
  });
  const config = join(scratch.path, "authz-webhook.kubeconfig");
  await writeWebhookKubeconfig(config, { server: `${webhook.url}/authorize`, caPem: webhook.caPem });
  server = await startServer(["--authorization-mode=Webhook,RBAC", `--authorization-webhook-config-file=${config}`]);
  for (const user of ["dennis", "rita"]) {
    expect((await server.kubectl(["create", "clusterrolebinding", `${user}-view`, "--clusterrole=view", `--user=${user}`])).code).toBe(0);
  }
});
afterAll(async () => {
  await server?.stop();
  await webhook?.stop();
  await scratch?.remove();
});

test("a user the webhook allows may act, asked with a v1beta1 SubjectAccessReview and cached afterwards", async () => {
  const wanda = await createUser(server, "wanda");
  expect((await wanda.kubectl(["create", "configmap", "by-wanda"])).stdout).toBe("configmap/by-wanda created\n");
  const asked = reviews.find((r) => r.spec.user === "wanda" && r.spec.resourceAttributes?.verb === "create");
  expect(asked).toMatchObject({
    apiVersion: "authorization.k8s.io/v1beta1",
    spec: {
      user: "wanda",
      group: ["system:authenticated"],
      resourceAttributes: { namespace: "default", verb: "create", version: "v1", resource: "configmaps" },
    },
  });
  expect((await wanda.kubectl(["get", "configmap", "by-wanda", "-o", "name"])).code).toBe(0);
  expect((await wanda.kubectl(["get", "configmap", "by-wanda", "-o", "name"])).code).toBe(0);
  expect(reviews.filter((r) => r.spec.user === "wanda" && r.spec.resourceAttributes?.name === "by-wanda")).toHaveLength(1);
});

test("a denial from the webhook is final even when RBAC would allow, and carries its reason", async () => {
  const dennis = await createUser(server, "dennis");
  const denied = await dennis.kubectl(["get", "configmaps"]);
  expect(denied.stderr).toContain(
    'configmaps is forbidden: User "dennis" cannot list resource "configmaps" in API group "" in the namespace "default": dennis is blocked by policy',
  );
});

test("no opinion from the webhook falls through to RBAC, and to 403 when RBAC has none either", async () => {
  const rita = await createUser(server, "rita");
  expect((await rita.kubectl(["get", "configmap", "by-wanda", "-o", "name"])).stdout).toBe("configmap/by-wanda\n");
  const denied = await rita.kubectl(["create", "configmap", "by-rita"]);
  expect(denied.stderr).toContain(
    'User "rita" cannot create resource "configmaps" in API group "" in the namespace "default": not my user',
  );
});

test("a webhook that is down gives no opinion: RBAC still decides, otherwise 403 naming the failure", async () => {
  await webhook.stop();
  const rita = await createUser(server, "rita");
  expect((await rita.kubectl(["get", "configmaps", "-n", "kube-system", "-o", "name"])).code).toBe(0);
  const wanda = await createUser(server, "wanda");
  const denied = await wanda.kubectl(["get", "secrets", "-n", "kube-system"]);
  expect(denied.stderr).toContain(
    'User "wanda" cannot list resource "secrets" in API group "" in the namespace "kube-system": the authorization webhook failed: ',
  );
});
