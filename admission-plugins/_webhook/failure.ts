/**
 * What a hook that did not simply allow means for the request (both dispatchers): the rejection metric is
 * recorded, a failed call under failurePolicy Ignore is let through, anything else becomes the answer.
 */
import { isStatusError, newInternalError, type StatusError } from "../../core/api/errors.ts";
import { WebhookCallError, WebhookRejection } from "./errors.ts";
import type { RejectionRecorder } from "./metrics.ts";
import type { Webhook } from "./webhook.ts";

export interface FailureContext {
  type: "admit" | "validating";
  operation: string;
  rejections: RejectionRecorder;
}

/** The error to answer with, or null when the failure is ignored. */
export function judgeFailure(failure: unknown, webhook: Webhook, context: FailureContext): StatusError | null {
  const observe = (errorType: "calling_webhook_error" | "no_error" | "apiserver_internal_error", code: number) =>
    context.rejections.observe({ name: webhook.name, type: context.type, operation: context.operation, errorType, code });
  if (failure instanceof WebhookCallError) {
    if (webhook.failurePolicy === "Ignore") return null;
    observe("calling_webhook_error", failure.status.code);
    return newInternalError(failure.message);
  }
  if (failure instanceof WebhookRejection) {
    observe("no_error", failure.status.code);
    return failure.status;
  }
  observe("apiserver_internal_error", 0);
  return isStatusError(failure) ? failure : newInternalError(failure instanceof Error ? failure.message : String(failure));
}
