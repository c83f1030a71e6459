/**
 * The validating webhooks (kube's validating dispatcher): every matching hook is called in parallel; any
 * denial or failed call under failurePolicy Fail refuses the request (the first such hook in order answers).
 */
import type { ValidationAttributes } from "../../core/admission/types.ts";
import type { StatusError } from "../../core/api/errors.ts";
import { failedOpenAnnotation } from "../_webhook/annotations.ts";
import { callWebhook } from "../_webhook/call.ts";
import { WebhookRejection } from "../_webhook/errors.ts";
import { judgeFailure } from "../_webhook/failure.ts";
import { type Invocation, invocationFor } from "../_webhook/invocation.ts";
import { type WebhookServices, webhooksMayApply } from "../_webhook/services.ts";

export const VALIDATING_WEBHOOK_PLUGIN = "ValidatingAdmissionWebhook";

async function relevantInvocations(attributes: ValidationAttributes, services: WebhookServices): Promise<Invocation[]> {
  const relevant: Invocation[] = [];
  for (const webhook of services.configurations.hooks()) {
    const invocation = await invocationFor(webhook, attributes, services.match);
    if (invocation) relevant.push(invocation);
  }
  return relevant;
}

/** One hook's verdict: null when it lets the request through. */
async function verdictOf(
  invocation: Invocation,
  index: number,
  attributes: ValidationAttributes,
  services: WebhookServices,
): Promise<StatusError | null> {
  const { webhook } = invocation;
  try {
    const result = await callWebhook(invocation, attributes, services, false);
    if (result.allowed) return null;
    throw new WebhookRejection(webhook.name, result.status);
  } catch (failure) {
    const error = judgeFailure(failure, webhook, { type: "validating", operation: attributes.operation, rejections: services.rejections });
    if (!error) {
      attributes.addAuditAnnotation(
        ...failedOpenAnnotation("validating", { configuration: webhook.configurationName, webhook: webhook.name, round: 0, index }),
      );
    }
    return error;
  }
}

export async function validateWithWebhooks(attributes: ValidationAttributes, services: WebhookServices): Promise<void> {
  if (!webhooksMayApply(attributes, services)) return;
  const invocations = await relevantInvocations(attributes, services);
  const verdicts = await Promise.all(invocations.map((invocation, index) => verdictOf(invocation, index, attributes, services)));
  const refusal = verdicts.find((verdict) => verdict !== null);
  if (refusal) throw refusal;
}
