/**
 * Applying a PATCH body (patch-decode.ts reads it) to an object by its patch type, with kube-apiserver's answers for
 * patches that cannot be applied (patch.go: applyJSPatch, strategicPatchObject, interpretStrategicMergePatchError).
 */
import { applyJsonPatch, JsonPatchError, type JsonPatchOperation } from "../../apply/json-patch.ts";
import { mergePatch } from "../../apply/merge-patch.ts";
import { StrategicMergeError, strategicMergePatch } from "../../apply/strategic-merge/mod.ts";
import { CUSTOM_RESOURCE_PATCH_MEDIA_TYPES, interpretError, PATCH_MEDIA_TYPES } from "../../api/decode-body.ts";
import { newBadRequest, newInvalid, newUnsupportedMediaType, StatusError } from "../../api/errors.ts";
import { goMarshal } from "../../api/go-values.ts";
import { isPlainObject, type KubeObject } from "../../api/types.ts";
import { builtInSchemas } from "../../schema/lookup.ts";
import type { Schema } from "../../schema/types.ts";
import type { HandlerContext } from "./context.ts";
import { BAD_JSON_PATCH, JSON_PATCH, MERGE_PATCH, type PatchBody, STRATEGIC_MERGE_PATCH } from "./patch-decode.ts";

export { JSON_PATCH, MERGE_PATCH, STRATEGIC_MERGE_PATCH } from "./patch-decode.ts";
export const APPLY_PATCH = "application/apply-patch+yaml";

const MAX_JSON_PATCH_OPERATIONS = 10000;

/** The kind's built-in schema; kinds without one (custom resources) have no strategic merge patch. */
export function builtInSchemaOf(group: string, version: string, kind: string): Schema | undefined {
  return builtInSchemas.schemaForKind(group, version, kind);
}

/** The patch media type of the request, refused with 415 unless the kind accepts it. */
export function patchMediaType(ctx: HandlerContext, schema: Schema | undefined): string {
  const accepted = schema ? PATCH_MEDIA_TYPES : CUSTOM_RESOURCE_PATCH_MEDIA_TYPES;
  // PatchResource cuts the header at its first ";" (when not the first character) and compares the rest exactly.
  const contentType = ctx.request.headers.get("content-type") ?? "";
  const cut = contentType.indexOf(";");
  const mediaType = cut > 0 ? contentType.slice(0, cut) : contentType;
  if (!(accepted as readonly string[]).includes(mediaType)) throw newUnsupportedMediaType([...accepted]);
  return mediaType;
}

/** kube answers a patch that does not apply with a bare 422 (NewGenericServerResponse drops the reason). */
function newPatchNotApplicable(): StatusError {
  return new StatusError(422, "Invalid", "the server rejected our request due to an error in our request", {});
}

/** Applies `body` to `current`; `schema` (the kind's root schema) drives strategic merge patch. */
export function applyPatchBody(current: KubeObject, body: PatchBody, schema: Schema | undefined): KubeObject {
  if (body.refusal) throw body.refusal;
  const patched = patchedValue(current, body, schema);
  if (!isPlainObject(patched)) {
    // jsonPatcher.applyPatchToCurrentObject: the codec finds no apiVersion and kind in JSON that is not an object.
    throw newInvalid({ group: "", kind: "" }, "", [
      {
        type: "FieldValueInvalid",
        field: "patch",
        value: goMarshal(patched),
        detail: interpretError(patched),
      },
    ]);
  }
  return patched as KubeObject;
}

/** MergePatch's pruneAryNulls: an array patch becomes the document, with null members of its objects dropped. */
function pruneObjectNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(pruneObjectNulls);
  if (!isPlainObject(value)) return value;
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null).map(([k, v]) => [k, pruneObjectNulls(v)]));
}

function patchedValue(current: KubeObject, body: PatchBody, schema: Schema | undefined): unknown {
  switch (body.mediaType) {
    case JSON_PATCH:
      return applyJsonPatchBody(current, body.value);
    case MERGE_PATCH:
      if (Array.isArray(body.value)) return pruneObjectNulls(body.value);
      if (!isPlainObject(body.value)) throw newBadRequest(BAD_JSON_PATCH);
      return mergePatch(current, body.value);
    case STRATEGIC_MERGE_PATCH:
      return applyStrategicBody(current, body.value, schema);
    default:
      throw newUnsupportedMediaType([...PATCH_MEDIA_TYPES]);
  }
}

function applyJsonPatchBody(current: KubeObject, operations: unknown): unknown {
  if (!Array.isArray(operations)) throw new Error("a JSON patch is decoded as an array");
  if (operations.length > MAX_JSON_PATCH_OPERATIONS) {
    throw new StatusError(
      413,
      "RequestEntityTooLarge",
      `Request entity too large: The allowed maximum operations in a JSON patch is ${MAX_JSON_PATCH_OPERATIONS}, got ${operations.length}`,
    );
  }
  try {
    return applyJsonPatch(current, operations as JsonPatchOperation[]);
  } catch (e) {
    if (e instanceof JsonPatchError) throw newPatchNotApplicable();
    throw e;
  }
}

function applyStrategicBody(current: KubeObject, patch: unknown, schema: Schema | undefined): unknown {
  if (!schema) throw newUnsupportedMediaType([...CUSTOM_RESOURCE_PATCH_MEDIA_TYPES]);
  if (!isPlainObject(patch)) throw new Error("a strategic merge patch is decoded as an object");
  try {
    return strategicMergePatch(current, patch, { schema });
  } catch (e) {
    if (!(e instanceof StrategicMergeError)) throw e;
    if (e.status === 400) throw newBadRequest(e.message);
    if (e.status === 422) throw newPatchNotApplicable();
    // kube answers errors that are not API statuses with 500 and no reason.
    throw new StatusError(500, "", e.message);
  }
}
