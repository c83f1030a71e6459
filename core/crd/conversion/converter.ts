/**
 * Converting custom resources between a CRD's versions (apiextensions-apiserver pkg/apiserver/conversion): with
 * strategy None only apiVersion changes (nopConverter); with Webhook the objects not yet in the desired version go
 * to the CRD's webhook in one ConversionReview (webhookConverter.Convert). Failures are kube's internal errors.
 */
import { randomUUID } from "node:crypto";
import { newInternalError } from "../../api/errors.ts";
import { isPlainObject, type KubeObject } from "../../api/types.ts";
import type { ReadOnlyClient } from "../../api/client.ts";
import type { ConvertObjects } from "../../registry/store-extension.ts";
import { postJson, resolveTarget } from "../../webhook/mod.ts";
import type { CustomResourceDefinition, WebhookConversion } from "../../registry/apiextensions/mod.ts";
import { conversionReview, convertedObjectsOf, gvkText, identityError, reviewVersionFor, withRestoredMeta } from "./review.ts";

/** kube's webhook client timeout (webhook.ClientManager's default). */
const WEBHOOK_TIMEOUT_SECONDS = 30;

const convertWithoutWebhook: ConvertObjects = (objects, toApiVersion) =>
  Promise.resolve(objects.map((obj) => obj.apiVersion === toApiVersion ? obj : { ...obj, apiVersion: toApiVersion }));

export function converterFor(crd: CustomResourceDefinition, client: ReadOnlyClient): ConvertObjects {
  const webhook = crd.spec.conversion?.strategy === "Webhook" ? crd.spec.conversion.webhook : undefined;
  return webhook ? webhookConverter(webhook, crd.spec.names.listKind ?? `${crd.spec.names.kind}List`, client) : convertWithoutWebhook;
}

function webhookConverter(webhook: WebhookConversion, listKind: string, client: ReadOnlyClient): ConvertObjects {
  return async (objects, toApiVersion, list) => {
    const pending = objects.filter((obj) => obj.apiVersion !== toApiVersion);
    if (pending.length === 0) return objects;
    const subject = gvkText(pending[0]!.apiVersion, list ? listKind : pending[0]!.kind);
    const fail = (message: string) => newInternalError(`conversion webhook for ${subject} ${message}`);
    const version = reviewVersionFor(webhook.conversionReviewVersions ?? []);
    if (!version) throw newInternalError("no supported conversion review versions");
    const uid = randomUUID();
    let converted: unknown[];
    try {
      const target = await resolveTarget(webhook.clientConfig ?? {}, client);
      const reply = await postJson(target, conversionReview(version, uid, pending, toApiVersion), {
        timeoutSeconds: WEBHOOK_TIMEOUT_SECONDS,
      });
      converted = convertedObjectsOf(version, uid, reply);
    } catch (error) {
      throw fail(`failed: ${(error as Error).message}`);
    }
    if (converted.length !== pending.length) throw fail(`returned ${converted.length} objects, expected ${pending.length}`);
    const checked = pending.map((original, i) => checkedObject(original, converted[i], toApiVersion, list ? i + 1 : undefined, fail));
    let next = 0;
    return objects.map((obj) => obj.apiVersion === toApiVersion ? obj : checked[next++]!);
  };
}

/** One converted object's checks; `listIndex` is the index kube reports for list items (counted after the item). */
function checkedObject(
  original: KubeObject,
  answer: unknown,
  toApiVersion: string,
  listIndex: number | undefined,
  fail: (message: string) => Error,
): KubeObject {
  const converted = isPlainObject(answer) ? answer : {};
  const at = listIndex === undefined ? "invalid object at index 0" : `invalid converted object at index ${listIndex}`;
  if (converted.apiVersion !== toApiVersion) {
    throw fail(`returned ${at}: invalid groupVersion (expected ${toApiVersion}, received ${String(converted.apiVersion ?? "")})`);
  }
  if (converted.kind !== original.kind) {
    throw fail(`returned ${at}: invalid kind (expected ${original.kind}, received ${String(converted.kind ?? "")})`);
  }
  const identity = identityError(original, converted as KubeObject);
  if (identity) throw fail(listIndex === undefined ? `returned invalid object: ${identity}` : `returned ${at}: ${identity}`);
  try {
    return withRestoredMeta(original, converted);
  } catch (error) {
    const where = listIndex === undefined ? "returned invalid metadata" : `returned invalid metadata in object at index ${listIndex}`;
    throw fail(`${where}: ${(error as Error).message}`);
  }
}
