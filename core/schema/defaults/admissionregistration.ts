/** admissionregistration.k8s.io/v1 defaults of the webhook configurations (spec 2.9; pkg/apis/admissionregistration/v1/defaults.go). */
import type { KubeObject } from "../../api/types.ts";
import { defaultPointer, type Fields, objectAt, objectsAt } from "./_fields.ts";
import type { KindDefaulters } from "./_registry.ts";
import { defaultServiceReference } from "./_service-reference.ts";

const WEBHOOK_TIMEOUT_SECONDS = 10;

function defaultWebhook(webhook: Fields): void {
  defaultPointer(webhook, "failurePolicy", "Fail");
  defaultPointer(webhook, "matchPolicy", "Equivalent");
  defaultPointer(webhook, "namespaceSelector", {});
  defaultPointer(webhook, "objectSelector", {});
  defaultPointer(webhook, "timeoutSeconds", WEBHOOK_TIMEOUT_SECONDS);
  for (const rule of objectsAt(webhook, "rules")) defaultPointer(rule, "scope", "*");
  defaultServiceReference(objectAt(objectAt(webhook, "clientConfig"), "service"));
}

function defaultWebhooks(extra?: (webhook: Fields) => void) {
  return (configuration: KubeObject): void => {
    for (const webhook of objectsAt(configuration, "webhooks")) {
      defaultWebhook(webhook);
      extra?.(webhook);
    }
  };
}

export const ADMISSION_REGISTRATION_DEFAULTERS: KindDefaulters = {
  group: "admissionregistration.k8s.io",
  version: "v1",
  kinds: {
    ValidatingWebhookConfiguration: defaultWebhooks(),
    MutatingWebhookConfiguration: defaultWebhooks((webhook) => defaultPointer(webhook, "reinvocationPolicy", "Never")),
  },
};
