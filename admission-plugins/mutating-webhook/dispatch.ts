/**
 * The mutating webhooks of one pass (kube's mutating dispatcher): matching hooks are called one after another,
 * each seeing the previous ones' changes; a JSON patch reply is applied to the object in place. A change asks
 * the chain for a reinvocation pass, in which only IfNeeded hooks that ran before a later change run again.
 */
import { isDeepStrictEqual } from "node:util";
import type { AdmissionAttributes } from "../../core/admission/types.ts";
import { newInternalError, newServiceUnavailable } from "../../core/api/errors.ts";
import { isPlainObject, type KubeObject } from "../../core/api/types.ts";
import { applyJsonPatch, type JsonPatchOperation } from "../../core/apply/json-patch.ts";
import { failedOpenAnnotation, type HookPosition, mutationAnnotation, patchAnnotation } from "../_webhook/annotations.ts";
import { callWebhook } from "../_webhook/call.ts";
import { WebhookCallError, WebhookRejection } from "../_webhook/errors.ts";
import { judgeFailure } from "../_webhook/failure.ts";
import { type Invocation, invocationFor } from "../_webhook/invocation.ts";
import { fromInvokedVersion, toInvokedVersion } from "../_webhook/versioned.ts";
import { decodePatch } from "../_webhook/review.ts";
import { type WebhookServices, webhooksMayApply } from "../_webhook/services.ts";
import { WebhookReinvocationState } from "./reinvocation-state.ts";

export const MUTATING_WEBHOOK_PLUGIN = "MutatingAdmissionWebhook";

function replaceContents(target: KubeObject, source: KubeObject): void {
  for (const key of Object.keys(target)) delete target[key];
  Object.assign(target, source);
}

function decodedOperations(webhookName: string, patch: string): JsonPatchOperation[] {
  try {
    return decodePatch(patch) as JsonPatchOperation[];
  } catch (error) {
    throw new WebhookCallError(
      webhookName,
      `received undecodable patch in webhook response: ${(error as Error).message}`,
      newServiceUnavailable("error decoding patch in webhook response"),
    );
  }
}

/** Calls one hook and applies its patch; true when the object changed. */
async function callAndPatch(
  invocation: Invocation,
  attributes: AdmissionAttributes,
  services: WebhookServices,
  at: HookPosition,
): Promise<boolean> {
  const { webhook } = invocation;
  const result = await callWebhook(invocation, attributes, services, true);
  if (!result.allowed) throw new WebhookRejection(webhook.name, result.status);
  if (!result.patch) return false;
  const operations = decodedOperations(webhook.name, result.patch);
  if (operations.length === 0) return false;
  const object = attributes.object;
  if (!object) {
    throw newInternalError(`admission webhook "${webhook.name}" attempted to modify the object, which is not supported for this operation`);
  }
  let patched: unknown;
  try {
    patched = applyJsonPatch(toInvokedVersion(object, invocation, attributes), operations);
  } catch (error) {
    throw newInternalError((error as Error).message);
  }
  if (!isPlainObject(patched)) {
    throw newInternalError(`admission webhook "${webhook.name}" patched the object into something that is not an object`);
  }
  const inRequestVersion = fromInvokedVersion(patched as KubeObject, invocation, attributes);
  const changed = !isDeepStrictEqual(object, inRequestVersion);
  attributes.addAuditAnnotation(...patchAnnotation(at, operations));
  replaceContents(object, inRequestVersion);
  return changed;
}

export async function admitWithWebhooks(attributes: AdmissionAttributes, services: WebhookServices): Promise<void> {
  // Without hooks kube's dispatcher only keeps a reinvocation context that nothing will read.
  if (!webhooksMayApply(attributes, services)) return;
  const hooks = services.configurations.hooks();
  const { reinvocation } = attributes;
  const state = WebhookReinvocationState.of(reinvocation, MUTATING_WEBHOOK_PLUGIN);
  // A built-in plugin changed the object since the webhooks' last pass: reinvocable hooks must see it.
  if (reinvocation.isReinvoke && state.changedSinceLastPass(attributes.object)) state.requireReinvokingPrevious();
  try {
    for (const [index, webhook] of hooks.entries()) {
      const invocation = await invocationFor(webhook, attributes, services.match);
      if (!invocation) continue;
      // A hook is never called for the first time in the reinvocation pass.
      if (reinvocation.isReinvoke && !state.shouldReinvoke(webhook.uid)) continue;
      const at = { configuration: webhook.configurationName, webhook: webhook.name, round: reinvocation.isReinvoke ? 1 : 0, index };
      let changed = false;
      let failure: unknown;
      try {
        changed = await callAndPatch(invocation, attributes, services, at);
      } catch (error) {
        failure = error;
      }
      attributes.addAuditAnnotation(...mutationAnnotation(at, changed));
      if (changed) {
        state.requireReinvokingPrevious();
        reinvocation.requestReinvocation();
      }
      if (webhook.reinvocationPolicy === "IfNeeded") state.addInvokedReinvocable(webhook.uid);
      if (failure === undefined) continue;
      const error = judgeFailure(failure, webhook, { type: "admit", operation: attributes.operation, rejections: services.rejections });
      if (error) throw error;
      attributes.addAuditAnnotation(...failedOpenAnnotation("mutation", at));
    }
  } finally {
    state.rememberOutput(attributes.object);
  }
}
