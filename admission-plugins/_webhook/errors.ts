/**
 * How webhook outcomes become errors (k8s.io/apiserver pkg/admission/plugin/webhook/errors and util/webhook):
 * a call that failed (network, timeout, bad reply) is a WebhookCallError, which the failure policy turns into a
 * 500 or ignores; a denial becomes the webhook's own status.
 */
import { newBadRequest, StatusError } from "../../core/api/errors.ts";
import type { StatusDetails } from "../../core/api/types.ts";
import type { ReviewResult } from "./review.ts";

/** kube's ErrCallingWebhook: `status` is what the webhook call itself answered (its code feeds the metric). */
export class WebhookCallError extends Error {
  readonly status: StatusError;

  constructor(webhookName: string, reason: string, status: StatusError) {
    super(`failed calling webhook "${webhookName}": ${reason}`);
    this.name = "WebhookCallError";
    this.status = status;
  }
}

/**
 * The error a denial answers with: `admission webhook "x" denied the request: <message>`, the webhook's code
 * (403 when it gives none, at least 400 otherwise, as kube never lets a denial look like a success).
 */
export function denialError(webhookName: string, status: ReviewResult["status"]): StatusError {
  const deniedBy = `admission webhook "${webhookName}" denied the request`;
  const given = status?.code ?? 0;
  const code = given === 0 ? 403 : Math.max(given, 400);
  const message = status?.message
    ? `${deniedBy}: ${status.message}`
    : status?.reason
    ? `${deniedBy}: ${status.reason}`
    : `${deniedBy} without explanation`;
  const details = typeof status?.details === "object" && status.details !== null ? (status.details as StatusDetails) : undefined;
  return new StatusError(code, status?.reason ?? "", message, details);
}

export function newDryRunUnsupported(webhookName: string): StatusError {
  return newBadRequest(`admission webhook "${webhookName}" does not support dry run`);
}

/** kube's ErrWebhookRejection: the webhook answered `allowed: false`. */
export class WebhookRejection extends Error {
  readonly status: StatusError;

  constructor(webhookName: string, status: ReviewResult["status"]) {
    const error = denialError(webhookName, status);
    super(error.message);
    this.name = "WebhookRejection";
    this.status = error;
  }
}
