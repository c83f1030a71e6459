import { expect, test } from "bun:test";
import type { KubeObject } from "../../api/types.ts";
import { ADMISSION_REGISTRATION_DEFAULTERS } from "./admissionregistration.ts";

function defaultedWebhooks(kind: string, webhooks: unknown[]): Record<string, unknown>[] {
  const configuration: KubeObject = { apiVersion: "admissionregistration.k8s.io/v1", kind, metadata: { name: "c" }, webhooks };
  ADMISSION_REGISTRATION_DEFAULTERS.kinds[kind](configuration);
  return configuration.webhooks as Record<string, unknown>[];
}

const WEBHOOK = {
  name: "check.example.com",
  clientConfig: { service: { namespace: "ns", name: "svc" } },
  rules: [{ operations: ["CREATE"], apiGroups: [""], apiVersions: ["v1"], resources: ["pods"] }],
  sideEffects: "None",
  admissionReviewVersions: ["v1"],
};

test("a validating webhook gets Fail, Equivalent, empty selectors, 10 s, scope * and service port 443", () => {
  const [webhook] = defaultedWebhooks("ValidatingWebhookConfiguration", [structuredClone(WEBHOOK)]);
  expect(webhook).toEqual({
    ...WEBHOOK,
    clientConfig: { service: { namespace: "ns", name: "svc", port: 443 } },
    rules: [{ ...WEBHOOK.rules[0], scope: "*" }],
    failurePolicy: "Fail",
    matchPolicy: "Equivalent",
    namespaceSelector: {},
    objectSelector: {},
    timeoutSeconds: 10,
  });
});

test("a mutating webhook also gets reinvocationPolicy Never", () => {
  const [webhook] = defaultedWebhooks("MutatingWebhookConfiguration", [structuredClone(WEBHOOK)]);
  expect(webhook).toMatchObject({ reinvocationPolicy: "Never", failurePolicy: "Fail", timeoutSeconds: 10 });
});

test("a webhook keeps its explicit settings and a URL client config gets no port", () => {
  const explicit = {
    ...structuredClone(WEBHOOK),
    clientConfig: { url: "https://hook.example.com/check" },
    rules: [{ ...WEBHOOK.rules[0], scope: "Namespaced" }],
    failurePolicy: "Ignore",
    matchPolicy: "Exact",
    namespaceSelector: { matchLabels: { a: "b" } },
    timeoutSeconds: 5,
    reinvocationPolicy: "IfNeeded",
  };
  const [webhook] = defaultedWebhooks("MutatingWebhookConfiguration", [structuredClone(explicit)]);
  expect(webhook).toEqual({ ...explicit, objectSelector: {} });
});
