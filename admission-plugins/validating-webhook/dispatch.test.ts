import { afterAll, expect, test } from "bun:test";
import { attributesFor } from "../../core/admission/chain.ts";
import type { StatusError } from "../../core/api/errors.ts";
import { builtInCatalog } from "../../core/registry/catalog.ts";
import { base64Patch, configurationFor, reply, servicesFor, startWebhookServer, type TestWebhookServer } from "../_webhook/testing.ts";
import { validateWithWebhooks } from "./dispatch.ts";

const configMaps = builtInCatalog().byGroupVersionResource("", "v1", "configmaps")!;
const servers: TestWebhookServer[] = [];
afterAll(() => Promise.all(servers.map((server) => server.close())));

async function server(answer: Parameters<typeof startWebhookServer>[0]): Promise<TestWebhookServer> {
  const started = await startWebhookServer(answer);
  servers.push(started);
  return started;
}

function attributes() {
  const warnings: string[] = [];
  const auditAnnotations = new Map<string, string>();
  const object = { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "c", namespace: "team" } };
  const built = attributesFor({
    operation: "CREATE",
    type: configMaps,
    subresource: "",
    namespace: "team",
    name: "c",
    object,
    oldObject: null,
    user: { username: "alice", groups: [] },
    dryRun: false,
    options: { apiVersion: "meta.k8s.io/v1", kind: "CreateOptions" },
    warnings,
    auditAnnotations,
  });
  return { built, warnings, auditAnnotations };
}

const delayed = (ms: number, answer: (review: unknown) => unknown) => (review: unknown) =>
  new Promise((resolve) => setTimeout(() => resolve(answer(review)), ms));

test("validating webhooks are called in parallel and their warnings all reach the response", async () => {
  const first = await server(delayed(600, (review) => reply(review, { allowed: true, warnings: ["first says hi"] })));
  const second = await server(delayed(600, (review) => reply(review, { allowed: true, warnings: ["second says hi"] })));
  const services = servicesFor([
    configurationFor("ValidatingWebhookConfiguration", "one", first),
    configurationFor("ValidatingWebhookConfiguration", "two", second),
  ]);
  const { built, warnings } = attributes();
  const started = performance.now();
  await validateWithWebhooks(built, services);
  expect(performance.now() - started).toBeLessThan(1100);
  expect(warnings.sort()).toEqual(["first says hi", "second says hi"]);
});

test("one denial refuses the request with the denying webhook's status", async () => {
  const allowing = await server((review) => reply(review, { allowed: true }));
  const denying = await server((review) =>
    reply(review, { allowed: false, status: { code: 422, reason: "Invalid", message: "bad data" } })
  );
  const services = servicesFor([
    configurationFor("ValidatingWebhookConfiguration", "allow", allowing),
    configurationFor("ValidatingWebhookConfiguration", "deny", denying),
  ]);
  const error = await validateWithWebhooks(attributes().built, services).then(() => null, (e: StatusError) => e);
  expect(error).toMatchObject({
    code: 422,
    reason: "Invalid",
    message: 'admission webhook "deny.example.com" denied the request: bad data',
  });
  expect(await services.metrics.metrics()).toContain(
    '{name="deny.example.com",type="validating",operation="CREATE",error_type="no_error",rejection_code="422"} 1',
  );
});

test("a validating webhook that returns a patch has failed its call", async () => {
  const patching = await server((review) => reply(review, { allowed: true, patchType: "JSONPatch", patch: base64Patch([]) }));
  const failing = servicesFor([configurationFor("ValidatingWebhookConfiguration", "patcher", patching)]);
  const error = await validateWithWebhooks(attributes().built, failing).then(() => null, (e: StatusError) => e);
  expect(error?.message).toBe(
    'Internal error occurred: failed calling webhook "patcher.example.com": received invalid webhook response: validating webhook may not return response.patch',
  );
  const ignoring = servicesFor([configurationFor("ValidatingWebhookConfiguration", "patcher", patching, { failurePolicy: "Ignore" })]);
  const { built, auditAnnotations } = attributes();
  await validateWithWebhooks(built, ignoring);
  expect(auditAnnotations.get("failed-open.validating.webhook.admission.k8s.io/round_0_index_0")).toBe("patcher.example.com");
});

test("a webhook whose certificate the caBundle does not vouch for fails the call", async () => {
  const hook = await server((review) => reply(review, { allowed: true }));
  const other = await server((review) => reply(review, { allowed: true }));
  const services = servicesFor([
    configurationFor("ValidatingWebhookConfiguration", "untrusted", hook, { clientConfig: { url: hook.url, caBundle: other.caBundle } }),
  ]);
  const error = await validateWithWebhooks(attributes().built, services).then(() => null, (e: StatusError) => e);
  expect(error?.code).toBe(500);
  expect(hook.calls).toHaveLength(0);
});
