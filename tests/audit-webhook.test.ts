/**
 * The audit webhook backend (k8s.io/apiserver plugin/pkg/audit/webhook) end to end: an HTTPS sink on loopback
 * named by --audit-webhook-config-file receives audit.k8s.io/v1 EventLists, batched in batch mode (kube's
 * buffered backend) and one per event before the response in blocking mode; blocking-strict fails the request
 * when its RequestReceived event cannot be stored (WithAudit's "failed to store audit event").
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import type { Json } from "./_api.ts";
import { eventually, writePolicy } from "./_audit.ts";
import { scratchDir } from "./_authn.ts";
import { type HttpsFixture, startHttpsFixture, writeWebhookKubeconfig } from "./_https-fixture.ts";
import { startServer } from "./harness.ts";

let scratch: Awaited<ReturnType<typeof scratchDir>>;
let sink: HttpsFixture;
const received: Json[] = [];
let failing = false;
let failNext = 0;
let kubeconfig: string;
let policy: string;

beforeAll(async () => {
  scratch = await scratchDir();
  sink = await startHttpsFixture(async (request) => {
    if (failing || failNext-- > 0) return new Response("down", { status: 500 });
    received.push({ method: request.method, contentType: request.headers.get("content-type"), body: await request.json() });
    return new Response("{}", { headers: { "Content-Type": "application/json" } });
  });
  kubeconfig = join(scratch.path, "audit-webhook.kubeconfig");
  await writeWebhookKubeconfig(kubeconfig, { server: `${sink.url}/audit`, caPem: sink.caPem });
  policy = join(scratch.path, "policy.yaml");
  await writePolicy(policy, "rules:\n- level: Metadata\n  users: [admin]\n  nonResourceURLs: [/healthz]\n");
});

afterAll(async () => {
  await sink?.stop();
  await scratch?.remove();
});

const idsOf = (list: Json) => list.items.map((event: Json) => `${event.auditID}/${event.stage}`);

test("batch mode: events arrive as one EventList per batch of --audit-webhook-batch-max-size", async () => {
  received.length = 0;
  const server = await startServer([
    `--audit-policy-file=${policy}`,
    `--audit-webhook-config-file=${kubeconfig}`,
    "--audit-webhook-batch-max-size=4",
    "--audit-webhook-batch-max-wait=1h",
  ]);
  try {
    for (const id of ["batch-1", "batch-2"]) {
      expect((await server.request("GET", "/healthz", { headers: { "Audit-ID": id } })).status).toBe(200);
    }
    const batch = await eventually(async () => received[0], "a batch");
    expect(batch.method).toBe("POST");
    expect(batch.contentType).toBe("application/json");
    expect(batch.body).toMatchObject({ kind: "EventList", apiVersion: "audit.k8s.io/v1" });
    expect(idsOf(batch.body)).toEqual([
      "batch-1/RequestReceived",
      "batch-1/ResponseComplete",
      "batch-2/RequestReceived",
      "batch-2/ResponseComplete",
    ]);
    expect(batch.body.items[1]).toMatchObject({
      kind: "Event",
      apiVersion: "audit.k8s.io/v1",
      level: "Metadata",
      verb: "get",
      requestURI: "/healthz",
      user: { username: "admin" },
      responseStatus: { metadata: {}, code: 200 },
    });
  } finally {
    await server.stop();
  }
});

test("blocking mode: each event is posted before the response is sent", async () => {
  received.length = 0;
  const server = await startServer([
    `--audit-policy-file=${policy}`,
    `--audit-webhook-config-file=${kubeconfig}`,
    "--audit-webhook-mode=blocking",
  ]);
  try {
    expect((await server.request("GET", "/healthz", { headers: { "Audit-ID": "blocking-1" } })).status).toBe(200);
    expect(received.map((post) => idsOf(post.body))).toEqual([["blocking-1/RequestReceived"], ["blocking-1/ResponseComplete"]]);
  } finally {
    await server.stop();
  }
});

test("blocking-strict mode: a sink that cannot store RequestReceived fails the request with kube's 500", async () => {
  const server = await startServer([
    `--audit-policy-file=${policy}`,
    `--audit-webhook-config-file=${kubeconfig}`,
    "--audit-webhook-mode=blocking-strict",
    "--audit-webhook-initial-backoff=5ms",
  ]);
  try {
    failing = true;
    const response = await server.request("GET", "/healthz");
    expect(response.status).toBe(500);
    expect(await response.json()).toMatchObject({
      kind: "Status",
      status: "Failure",
      reason: "InternalError",
      code: 500,
      message: "Internal error occurred: failed to store audit event",
    });
  } finally {
    failing = false;
    await server.stop();
  }
});

test("a post the sink refuses with a 5xx is retried after --audit-webhook-initial-backoff (kube's webhook backoff)", async () => {
  received.length = 0;
  const server = await startServer([
    `--audit-policy-file=${policy}`,
    `--audit-webhook-config-file=${kubeconfig}`,
    "--audit-webhook-mode=blocking",
    "--audit-webhook-initial-backoff=5ms",
  ]);
  try {
    failNext = 1;
    expect((await server.request("GET", "/healthz", { headers: { "Audit-ID": "retried-1" } })).status).toBe(200);
    expect(received.map((post) => idsOf(post.body))).toEqual([["retried-1/RequestReceived"], ["retried-1/ResponseComplete"]]);
  } finally {
    failNext = 0;
    await server.stop();
  }
});
