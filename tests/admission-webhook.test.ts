/** MutatingAdmissionWebhook and ValidatingAdmissionWebhook against real HTTPS webhooks on loopback, via HTTP and kubectl. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { base64Patch, configurationFor, reply, startWebhookServer, type TestWebhookServer } from "../admission-plugins/_webhook/testing.ts";
import { startServer, type TestServer } from "./harness.ts";
import { configMap, createNamespace, expectStatus, getJson, type Json, sendJson } from "./_api.ts";

let server: TestServer;
const hooks: TestWebhookServer[] = [];

beforeAll(async () => {
  server = await startServer();
});

afterAll(async () => {
  await server?.stop();
  await Promise.all(hooks.map((hook) => hook.close()));
});

async function hookServer(answer: Parameters<typeof startWebhookServer>[0], hosts?: string[]): Promise<TestWebhookServer> {
  const hook = await startWebhookServer(answer, { hosts });
  hooks.push(hook);
  return hook;
}

/** A configuration whose webhook only sees ConfigMaps labelled `test=<name>`, so tests stay apart. */
async function configure(
  kind: "MutatingWebhookConfiguration" | "ValidatingWebhookConfiguration",
  name: string,
  hook: TestWebhookServer,
  fields: Record<string, unknown> = {},
): Promise<void> {
  const object = configurationFor(kind, name, hook, { objectSelector: { matchLabels: { test: name } }, ...fields });
  const plural = kind === "MutatingWebhookConfiguration" ? "mutatingwebhookconfigurations" : "validatingwebhookconfigurations";
  const answer = await sendJson(server, "POST", `/apis/admissionregistration.k8s.io/v1/${plural}`, object);
  expect({ status: answer.status, body: answer.status === 201 ? undefined : answer.body }).toEqual({ status: 201, body: undefined });
}

function labelled(name: string, test: string): Json {
  return configMap("default", name, { labels: { test } });
}

test("a mutating webhook's JSON patch is stored and its warning reaches kubectl", async () => {
  const hook = await hookServer((review) =>
    reply(review, {
      allowed: true,
      warnings: ["label added by the webhook"],
      patchType: "JSONPatch",
      patch: base64Patch([{ op: "add", path: "/data/added", value: "yes" }]),
    })
  );
  await configure("MutatingWebhookConfiguration", "mutate", hook);
  const result = await server.kubectl(["create", "-f", "-"], { stdin: JSON.stringify(labelled("mutated", "mutate")) });
  expect(result.code).toBe(0);
  expect(result.stderr).toContain("Warning: label added by the webhook");
  expect((await getJson(server, "/api/v1/namespaces/default/configmaps/mutated")).data).toEqual({ key: "value", added: "yes" });
  expect(hook.calls[0].review.request).toMatchObject({ operation: "CREATE", kind: { kind: "ConfigMap" }, dryRun: false });
});

test("a validating webhook's denial reaches the client with its code, and kubectl shows it", async () => {
  const hook = await hookServer((review) =>
    reply(review, { allowed: false, status: { code: 422, reason: "Invalid", message: "configmaps need an owner" } })
  );
  await configure("ValidatingWebhookConfiguration", "deny", hook);
  const answer = await sendJson(server, "POST", "/api/v1/namespaces/default/configmaps", labelled("denied", "deny"));
  expectStatus(answer, 422, "Invalid", 'admission webhook "deny.example.com" denied the request: configmaps need an owner');
  const result = await server.kubectl(["create", "-f", "-"], { stdin: JSON.stringify(labelled("denied", "deny")) });
  expect(result.code).not.toBe(0);
  expect(result.stderr).toContain('admission webhook "deny.example.com" denied the request: configmaps need an owner');
  const metrics = await (await server.request("GET", "/metrics")).text();
  expect(metrics).toContain(
    'apiserver_admission_webhook_rejection_count{name="deny.example.com",type="validating",operation="CREATE",error_type="no_error",rejection_code="422"}',
  );
});

test("deleting a configuration stops its webhook without a restart", async () => {
  const hook = await hookServer((review) => reply(review, { allowed: false }));
  await configure("ValidatingWebhookConfiguration", "removed", hook);
  expect((await sendJson(server, "POST", "/api/v1/namespaces/default/configmaps", labelled("before", "removed"))).status).toBe(403);
  expect((await sendJson(server, "DELETE", "/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations/removed")).status).toBe(
    200,
  );
  expect((await sendJson(server, "POST", "/api/v1/namespaces/default/configmaps", labelled("after", "removed"))).status).toBe(201);
});

test("a webhook behind a Service is reached through the Service's Endpoints", async () => {
  const hook = await hookServer((review) => reply(review, { allowed: false, status: { message: `seen by ${review.request.name}` } }), [
    "checker.hooks.svc",
  ]);
  await createNamespace(server, "hooks");
  const service = {
    apiVersion: "v1",
    kind: "Service",
    metadata: { name: "checker", namespace: "hooks" },
    spec: { ports: [{ name: "https", port: 443, targetPort: 8443 }] },
  };
  const endpoints = {
    apiVersion: "v1",
    kind: "Endpoints",
    metadata: { name: "checker", namespace: "hooks" },
    subsets: [{ addresses: [{ ip: "127.0.0.1" }], ports: [{ name: "https", port: hook.port }] }],
  };
  expect((await sendJson(server, "POST", "/api/v1/namespaces/hooks/services", service)).status).toBe(201);
  expect((await sendJson(server, "POST", "/api/v1/namespaces/hooks/endpoints", endpoints)).status).toBe(201);
  await configure("ValidatingWebhookConfiguration", "service", hook, {
    clientConfig: { service: { namespace: "hooks", name: "checker", path: "/validate" }, caBundle: hook.caBundle },
  });
  const answer = await sendJson(server, "POST", "/api/v1/namespaces/default/configmaps", labelled("via-service", "service"));
  expect(answer.status).toBe(403);
  expect(answer.body.message).toBe('admission webhook "service.example.com" denied the request: seen by via-service');
  expect(hook.calls[0].path).toBe("/validate?timeout=10s");
});

test("a dry run calls a webhook declared NoneOnDryRun and stores nothing", async () => {
  const hook = await hookServer((review) => reply(review, { allowed: true }));
  await configure("MutatingWebhookConfiguration", "dry", hook, { sideEffects: "NoneOnDryRun" });
  expect((await sendJson(server, "POST", "/api/v1/namespaces/default/configmaps?dryRun=All", labelled("dry", "dry"))).status).toBe(201);
  expect(hook.calls[0].review.request.dryRun).toBe(true);
  expect((await sendJson(server, "GET", "/api/v1/namespaces/default/configmaps/dry")).status).toBe(404);
});

test("a webhook that times out fails the request under Fail and is passed over under Ignore; v1beta1 is spoken when asked", async () => {
  const slow = await hookServer((review) => new Promise((resolve) => setTimeout(() => resolve(reply(review, { allowed: true })), 1500)));
  await configure("ValidatingWebhookConfiguration", "slow-fail", slow, { timeoutSeconds: 1 });
  await configure("ValidatingWebhookConfiguration", "slow-ignore", slow, {
    timeoutSeconds: 1,
    failurePolicy: "Ignore",
    admissionReviewVersions: ["v1beta1"],
  });
  const failed = await sendJson(server, "POST", "/api/v1/namespaces/default/configmaps", labelled("slow", "slow-fail"));
  expectStatus(
    failed,
    500,
    "InternalError",
    /failed calling webhook "slow-fail.example.com": failed to call webhook: Post ".*": context deadline exceeded$/,
  );
  expect((await sendJson(server, "POST", "/api/v1/namespaces/default/configmaps", labelled("slow", "slow-ignore"))).status).toBe(201);
  expect(slow.calls.map((call) => call.review.apiVersion)).toEqual(["admission.k8s.io/v1", "admission.k8s.io/v1beta1"]);
});

test("under matchPolicy Equivalent a hook for autoscaling/v1 sees a v2 HPA as v1 and its patch lands in v2 (kube's VersionedAttributes)", async () => {
  const hook = await hookServer((review) =>
    reply(review, {
      allowed: true,
      patchType: "JSONPatch",
      patch: base64Patch([{ op: "replace", path: "/spec/targetCPUUtilizationPercentage", value: 60 }]),
    })
  );
  await configure("MutatingWebhookConfiguration", "hpa-v1", hook, {
    rules: [{ operations: ["CREATE"], apiGroups: ["autoscaling"], apiVersions: ["v1"], resources: ["horizontalpodautoscalers"] }],
  });
  const hpa = {
    apiVersion: "autoscaling/v2",
    kind: "HorizontalPodAutoscaler",
    metadata: { name: "web", labels: { test: "hpa-v1" } },
    spec: {
      scaleTargetRef: { apiVersion: "apps/v1", kind: "Deployment", name: "web" },
      maxReplicas: 3,
      metrics: [{ type: "Resource", resource: { name: "cpu", target: { type: "Utilization", averageUtilization: 90 } } }],
    },
  };
  expect((await sendJson(server, "POST", "/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers", hpa)).status).toBe(201);
  const request = hook.calls[0].review.request;
  expect(request).toMatchObject({
    kind: { version: "v1" },
    requestKind: { version: "v2" },
    object: { apiVersion: "autoscaling/v1", spec: { targetCPUUtilizationPercentage: 90 } },
  });
  const stored = await getJson(server, "/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers/web");
  expect(stored.spec.metrics).toEqual([{
    type: "Resource",
    resource: { name: "cpu", target: { type: "Utilization", averageUtilization: 60 } },
  }]);
});
