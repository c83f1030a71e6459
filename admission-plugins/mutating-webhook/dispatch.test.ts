import { afterAll, expect, test } from "bun:test";
import { AdmissionChain } from "../../core/admission/chain.ts";
import type { AdmissionPlugin } from "../../core/admission/types.ts";
import type { StatusError } from "../../core/api/errors.ts";
import type { KubeObject } from "../../core/api/types.ts";
import type { AdmittedWrite } from "../../core/registry/admission-hook.ts";
import { builtInCatalog } from "../../core/registry/catalog.ts";
import type { WebhookServices } from "../_webhook/services.ts";
import {
  base64Patch,
  configurationFor,
  fixedClient,
  reply,
  servicesFor,
  startWebhookServer,
  type TestWebhookServer,
} from "../_webhook/testing.ts";
import { admitWithWebhooks } from "./dispatch.ts";

const configMaps = builtInCatalog().byGroupVersionResource("", "v1", "configmaps")!;
const servers: TestWebhookServer[] = [];
afterAll(() => Promise.all(servers.map((server) => server.close())));

async function server(answer: Parameters<typeof startWebhookServer>[0], hosts?: string[]): Promise<TestWebhookServer> {
  const started = await startWebhookServer(answer, { hosts });
  servers.push(started);
  return started;
}

function write(overrides: Partial<AdmittedWrite> = {}): AdmittedWrite & { warnings: string[]; auditAnnotations: Map<string, string> } {
  const object: KubeObject = { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "c", namespace: "team", labels: {} }, data: {} };
  return {
    operation: "CREATE",
    type: configMaps,
    subresource: "",
    namespace: "team",
    name: "c",
    object,
    oldObject: null,
    user: { username: "alice", groups: ["system:authenticated"] },
    dryRun: false,
    options: { apiVersion: "meta.k8s.io/v1", kind: "CreateOptions" },
    warnings: [],
    auditAnnotations: new Map(),
    ...overrides,
  } as AdmittedWrite & { warnings: string[]; auditAnnotations: Map<string, string> };
}

function chainOf(services: WebhookServices, before: AdmissionPlugin[] = []): AdmissionChain {
  return new AdmissionChain([...before, {
    name: "MutatingAdmissionWebhook",
    admit: (attributes) => admitWithWebhooks(attributes, services),
  }]);
}

/** A refusal is always a rejected promise (AdmissionHook). */
async function refusal(run: unknown): Promise<StatusError> {
  return await (run as Promise<unknown>).then(() => {
    throw new Error("expected a refusal");
  }, (error: StatusError) => error);
}

const addLabel = (key: string) => base64Patch([{ op: "add", path: `/metadata/labels/${key}`, value: "set" }]);

test("a JSONPatch reply changes the object, and warnings and audit annotations are recorded", async () => {
  const hook = await server((review) =>
    reply(review, { allowed: true, patchType: "JSONPatch", patch: addLabel("mutated"), warnings: ["labels were added"] })
  );
  const services = servicesFor([configurationFor("MutatingWebhookConfiguration", "labeler", hook)]);
  const request = write();
  await chainOf(services).admit(request);
  expect(request.object?.metadata.labels).toEqual({ mutated: "set" });
  expect(request.warnings).toEqual(["labels were added"]);
  expect(JSON.parse(request.auditAnnotations.get("mutation.webhook.admission.k8s.io/round_0_index_0")!)).toEqual({
    configuration: "labeler",
    webhook: "labeler.example.com",
    mutated: true,
  });
  expect(JSON.parse(request.auditAnnotations.get("patch.webhook.admission.k8s.io/round_0_index_0")!)).toMatchObject({
    patchType: "JSONPatch",
    patch: [{ op: "add" }],
  });
  expect(hook.calls[0].review.request).toMatchObject({
    operation: "CREATE",
    name: "c",
    namespace: "team",
    userInfo: { username: "alice" },
  });
  expect(hook.calls[0].path).toBe("/labeler?timeout=10s");
});

test("a denial answers with the webhook's code and message, and counts in the rejection metric", async () => {
  const hook = await server((review) => reply(review, { allowed: false, status: { code: 418, message: "teapots only" } }));
  const services = servicesFor([configurationFor("MutatingWebhookConfiguration", "teapot", hook)]);
  const error = await refusal(chainOf(services).admit(write()));
  expect(error).toMatchObject({ code: 418, message: 'admission webhook "teapot.example.com" denied the request: teapots only' });
  expect(await services.metrics.metrics()).toContain(
    'apiserver_admission_webhook_rejection_count{name="teapot.example.com",type="admit",operation="CREATE",error_type="no_error",rejection_code="418"} 1',
  );
});

test("a webhook that times out fails the request under Fail and is skipped under Ignore", async () => {
  const slow = await server(() => new Promise((resolve) => setTimeout(resolve, 1500)));
  const failing = servicesFor([configurationFor("MutatingWebhookConfiguration", "slow", slow, { timeoutSeconds: 1 })]);
  const error = await refusal(chainOf(failing).admit(write()));
  expect(error.code).toBe(500);
  expect(error.message).toMatch(
    /^Internal error occurred: failed calling webhook "slow.example.com": failed to call webhook: Post "https:\/\/127.0.0.1:\d+\/slow\?timeout=1s": context deadline exceeded$/,
  );
  expect(await failing.metrics.metrics()).toContain('error_type="calling_webhook_error",rejection_code="503"} 1');
  const ignoring = servicesFor([
    configurationFor("MutatingWebhookConfiguration", "slow", slow, { timeoutSeconds: 1, failurePolicy: "Ignore" }),
  ]);
  const request = write();
  await chainOf(ignoring).admit(request);
  expect(request.auditAnnotations.get("failed-open.mutation.webhook.admission.k8s.io/round_0_index_0")).toBe("slow.example.com");
});

test("a v1beta1-only webhook gets and must answer a v1beta1 AdmissionReview", async () => {
  const hook = await server((review) => reply(review, { allowed: true }));
  const services = servicesFor([configurationFor("MutatingWebhookConfiguration", "old", hook, { admissionReviewVersions: ["v1beta1"] })]);
  await chainOf(services).admit(write());
  expect(hook.calls[0].review.apiVersion).toBe("admission.k8s.io/v1beta1");
  const wrongVersion = await server((review) => ({ ...reply(review, { allowed: true }), apiVersion: "admission.k8s.io/v1" }));
  const mismatched = servicesFor([
    configurationFor("MutatingWebhookConfiguration", "old", wrongVersion, { admissionReviewVersions: ["v1beta1"] }),
  ]);
  expect((await refusal(chainOf(mismatched).admit(write()))).message).toContain(
    "received invalid webhook response: expected webhook response of admission.k8s.io/v1beta1",
  );
});

test("an IfNeeded hook runs again after a later hook changed the object; a Never hook does not", async () => {
  const first = await server((review) =>
    reply(review, {
      allowed: true,
      patchType: "JSONPatch",
      patch: addLabel(`first-${review.request.object.metadata.labels.second ? "again" : "once"}`),
    })
  );
  const second = await server((review) => reply(review, { allowed: true, patchType: "JSONPatch", patch: addLabel("second") }));
  const services = servicesFor([
    configurationFor("MutatingWebhookConfiguration", "a-first", first, { reinvocationPolicy: "IfNeeded" }),
    configurationFor("MutatingWebhookConfiguration", "b-second", second),
  ]);
  let builtInRuns = 0;
  const request = write();
  await chainOf(services, [{ name: "BuiltIn", admit: () => void builtInRuns++ }]).admit(request);
  expect(Object.keys(request.object!.metadata.labels!).sort()).toEqual(["first-again", "first-once", "second"]);
  expect([first.calls.length, second.calls.length, builtInRuns]).toEqual([2, 1, 2]);
  expect(request.auditAnnotations.has("mutation.webhook.admission.k8s.io/round_1_index_0")).toBe(true);
});

test("a dry run refuses hooks with side effects and calls those without", async () => {
  const hook = await server((review) => reply(review, { allowed: true }));
  const unsafe = servicesFor([configurationFor("MutatingWebhookConfiguration", "unsafe", hook, { sideEffects: "Some" })]);
  expect(await refusal(chainOf(unsafe).admit(write({ dryRun: true })))).toMatchObject({
    code: 400,
    message: 'admission webhook "unsafe.example.com" does not support dry run',
  });
  const safe = servicesFor([configurationFor("MutatingWebhookConfiguration", "safe", hook, { sideEffects: "NoneOnDryRun" })]);
  await chainOf(safe).admit(write({ dryRun: true }));
  expect(hook.calls.at(-1)?.review.request.dryRun).toBe(true);
});

test("a service reference is called at a ready endpoint, verifying the service's DNS name", async () => {
  const hook = await server((review) => reply(review, { allowed: false }), ["hooks.infra.svc"]);
  const client = fixedClient([
    {
      apiVersion: "v1",
      kind: "Service",
      metadata: { name: "hooks", namespace: "infra" },
      spec: { ports: [{ name: "https", port: 8443, targetPort: 9443 }] },
    },
    {
      apiVersion: "v1",
      kind: "Endpoints",
      metadata: { name: "hooks", namespace: "infra" },
      subsets: [{ addresses: [{ ip: "127.0.0.1" }], ports: [{ name: "https", port: hook.port }] }],
    },
  ]);
  const clientConfig = { service: { namespace: "infra", name: "hooks", port: 8443, path: "/check" }, caBundle: hook.caBundle };
  const services = servicesFor([configurationFor("MutatingWebhookConfiguration", "svc", hook, { clientConfig })], client);
  expect((await refusal(chainOf(services).admit(write()))).message).toBe(
    'admission webhook "svc.example.com" denied the request without explanation',
  );
  expect(hook.calls[0].path).toBe("/check?timeout=10s");
});

test("writes of webhook configurations never reach webhooks", async () => {
  const hook = await server((review) => reply(review, { allowed: false }));
  const configuration = configurationFor("MutatingWebhookConfiguration", "all", hook, {
    rules: [{ operations: ["*"], apiGroups: ["*"], apiVersions: ["*"], resources: ["*"] }],
  });
  const type = builtInCatalog().byGroupVersionResource("admissionregistration.k8s.io", "v1", "mutatingwebhookconfigurations")!;
  await chainOf(servicesFor([configuration])).admit(write({ type, namespace: "", object: configuration }));
  expect(hook.calls).toHaveLength(0);
});

/** A chain of one IfNeeded hook that labels the object once, then a built-in plugin that may label it too. */
async function hookThenBuiltIn(builtInChanges: boolean) {
  const hook = await server((review) =>
    review.request.object.metadata.labels.hooked
      ? reply(review, { allowed: true })
      : reply(review, { allowed: true, patchType: "JSONPatch", patch: addLabel("hooked") })
  );
  const services = servicesFor([configurationFor("MutatingWebhookConfiguration", "once", hook, { reinvocationPolicy: "IfNeeded" })]);
  let builtInRuns = 0;
  const chain = new AdmissionChain([
    { name: "MutatingAdmissionWebhook", admit: (attributes) => admitWithWebhooks(attributes, services) },
    {
      name: "BuiltInAfter",
      admit: (attributes) => void (builtInChanges && (attributes.object!.metadata.labels!.builtIn = String(++builtInRuns))),
    },
  ]);
  await chain.admit(write());
  return hook.calls;
}

test("an IfNeeded hook runs again when a built-in plugin after it changed the object (kube's IsOutputChangedSinceLastWebhookInvocation)", async () => {
  const calls = await hookThenBuiltIn(true);
  expect(calls.length).toBe(2);
  expect(calls[1]!.review.request.object.metadata.labels).toEqual({ hooked: "set", builtIn: "1" });
});

test("an IfNeeded hook whose own change asked for the reinvocation pass is not run again when nothing changed after it", async () => {
  expect((await hookThenBuiltIn(false)).length).toBe(1);
});
