import { expect, test } from "bun:test";
import { messages } from "./_testing.ts";
import { validateMutatingWebhookConfiguration, validateValidatingWebhookConfiguration } from "./webhook-configuration.ts";

const hook = (extra: Record<string, unknown> = {}) => ({
  name: "check.example.com",
  sideEffects: "None",
  admissionReviewVersions: ["v1"],
  clientConfig: { url: "https://hook.example.com/validate" },
  rules: [{ operations: ["CREATE"], apiGroups: [""], apiVersions: ["v1"], resources: ["pods"] }],
  ...extra,
});
const config = (...webhooks: unknown[]) => ({ metadata: { name: "cfg" }, webhooks });

test("a complete webhook configuration is valid", () => {
  expect(validateValidatingWebhookConfiguration(config(hook()))).toEqual([]);
  expect(
    validateMutatingWebhookConfiguration(
      config(hook({ reinvocationPolicy: "IfNeeded", clientConfig: { service: { namespace: "ns", name: "svc", path: "/m" } } })),
    ),
  ).toEqual([]);
});

test("webhook configurations follow the seed's rules with kube's messages", () => {
  const cases: [unknown[], string[]][] = [
    [[hook(), hook()], ['webhooks[1].name: Duplicate value: "check.example.com"']],
    [[hook({ name: "check" })], [
      'webhooks[0].name: Invalid value: "check": should be a domain with at least three segments separated by dots',
    ]],
    [[hook({ timeoutSeconds: 31 })], ["webhooks[0].timeoutSeconds: Invalid value: 31: the timeout value must be between 1 and 30 seconds"]],
    [[hook({ sideEffects: "Some" })], ['webhooks[0].sideEffects: Unsupported value: "Some": supported values: "None", "NoneOnDryRun"']],
    [[hook({ sideEffects: undefined })], ["webhooks[0].sideEffects: Required value: must specify one of None, NoneOnDryRun"]],
    [[hook({ admissionReviewVersions: [] })], ["webhooks[0].admissionReviewVersions: Required value: must specify one of v1, v1beta1"]],
    [[hook({ admissionReviewVersions: ["v2"] })], [
      'webhooks[0].admissionReviewVersions: Invalid value: []string{"v2"}: must include at least one of v1, v1beta1',
    ]],
    [[hook({ clientConfig: { url: "http://hook.example.com" } })], [
      "webhooks[0].clientConfig.url: Invalid value: \"http\": 'https' is the only allowed URL scheme; desired format: https://host[/path]",
    ]],
    [[hook({ clientConfig: { url: "https://u:p@hook.example.com" } })], [
      'webhooks[0].clientConfig.url: Invalid value: "u:p": user information is not permitted in the URL',
    ]],
    [[hook({ clientConfig: { url: "https://hook.example.com/?a=b" } })], [
      'webhooks[0].clientConfig.url: Invalid value: "a=b": query parameters are not permitted in the URL',
    ]],
    [[hook({ clientConfig: { url: "https://hook.example.com/#top" } })], [
      'webhooks[0].clientConfig.url: Invalid value: "top": fragments are not permitted in the URL',
    ]],
    [[hook({ clientConfig: {} })], ["webhooks[0].clientConfig: Required value: exactly one of url or service is required"]],
    [[hook({ failurePolicy: "Maybe" })], ['webhooks[0].failurePolicy: Unsupported value: "Maybe": supported values: "Fail", "Ignore"']],
    [[hook({ rules: [{ operations: ["PATCH"], apiGroups: ["*", "apps"], apiVersions: ["v1"], resources: ["pods"], scope: "Global" }] })], [
      'webhooks[0].rules[0].operations[0]: Unsupported value: "PATCH": supported values: "*", "CONNECT", "CREATE", "DELETE", "UPDATE"',
      `webhooks[0].rules[0].apiGroups: Invalid value: []string{"*", "apps"}: if '*' is present, must not specify other API groups`,
      'webhooks[0].rules[0].scope: Unsupported value: "Global": supported values: "*", "Cluster", "Namespaced"',
    ]],
  ];
  for (const [hooks, expected] of cases) expect(messages(validateValidatingWebhookConfiguration(config(...hooks)))).toEqual(expected);
});

test("only mutating webhooks check reinvocationPolicy", () => {
  expect(messages(validateMutatingWebhookConfiguration(config(hook({ reinvocationPolicy: "Always" }))))).toEqual([
    'webhooks[0].reinvocationPolicy: Unsupported value: "Always": supported values: "IfNeeded", "Never"',
  ]);
});

test("an update keeps tolerating duplicate names the stored object already had", () => {
  const stored = config(hook(), hook());
  expect(validateValidatingWebhookConfiguration(config(hook(), hook({ timeoutSeconds: 5 })), stored)).toEqual([]);
});
