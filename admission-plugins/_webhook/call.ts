/**
 * One webhook call (kube's callAttr*Hook up to the verdict): dry-run check, AdmissionReview in the hook's
 * version, the https POST, the reply's checks; the reply's warnings and audit annotations are recorded
 * whatever the verdict. Failures of the call itself are WebhookCallErrors, for the failure policy to judge.
 */
import { randomUUID } from "node:crypto";
import type { AdmissionAttributes } from "../../core/admission/types.ts";
import { newBadRequest, newServiceUnavailable } from "../../core/api/errors.ts";
import type { ReadOnlyClient } from "../../core/api/client.ts";
import type { CredentialsLookup } from "./client-credentials.ts";
import { newDryRunUnsupported, WebhookCallError } from "./errors.ts";
import { type CallTarget, PostFailure, postJson, resolveTarget } from "../../core/webhook/mod.ts";
import type { Invocation } from "./invocation.ts";
import { buildReview, readReviewResponse, type ReviewResult, reviewVersionFor } from "./review.ts";

export interface CallServices {
  client: ReadOnlyClient;
  credentials: CredentialsLookup;
}

type CalledAttributes = Omit<AdmissionAttributes, "reinvocation">;

function checkDryRun(name: string, sideEffects: string | undefined): void {
  if (sideEffects === undefined) {
    throw new WebhookCallError(name, "Webhook SideEffects is nil", newBadRequest("Webhook SideEffects is nil"));
  }
  if (sideEffects !== "None" && sideEffects !== "NoneOnDryRun") throw newDryRunUnsupported(name);
}

async function targetOf(invocation: Invocation, services: CallServices): Promise<CallTarget> {
  const { webhook } = invocation;
  try {
    return await resolveTarget(webhook.clientConfig, services.client);
  } catch (error) {
    throw new WebhookCallError(
      webhook.name,
      `failed to call webhook: ${(error as Error).message}`,
      newServiceUnavailable("error calling webhook"),
    );
  }
}

export async function callWebhook(
  invocation: Invocation,
  attributes: CalledAttributes,
  services: CallServices,
  mutating: boolean,
): Promise<ReviewResult> {
  const { webhook } = invocation;
  if (attributes.dryRun) checkDryRun(webhook.name, webhook.sideEffects);
  const version = reviewVersionFor(webhook.admissionReviewVersions);
  if (!version) {
    throw new WebhookCallError(
      webhook.name,
      "could not create admission objects: webhook does not accept known AdmissionReview versions",
      newBadRequest("error creating admission objects"),
    );
  }
  const uid = randomUUID();
  const target = await targetOf(invocation, services);
  let reply: unknown;
  try {
    reply = await postJson(target, buildReview(version, uid, invocation, attributes), {
      timeoutSeconds: webhook.timeoutSeconds,
      credentials: services.credentials(target.credentialsKey),
    });
  } catch (error) {
    const status = error instanceof PostFailure && error.status ? error.status : newServiceUnavailable("error calling webhook");
    throw new WebhookCallError(webhook.name, `failed to call webhook: ${(error as Error).message}`, status);
  }
  let result: ReviewResult;
  try {
    result = readReviewResponse(version, uid, mutating, reply);
  } catch (error) {
    throw new WebhookCallError(
      webhook.name,
      `received invalid webhook response: ${(error as Error).message}`,
      newServiceUnavailable("error validating webhook response"),
    );
  }
  for (const [key, value] of Object.entries(result.auditAnnotations)) {
    attributes.addAuditAnnotation(`${webhook.name}/${key}`, String(value));
  }
  for (const warning of result.warnings) attributes.addWarning(warning);
  return result;
}
