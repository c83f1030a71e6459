/**
 * Reading a PATCH body and applying it to an object by its patch type, with kube-apiserver's answers for
 * patches that cannot be applied (patch.go: applyJSPatch, strategicPatchObject, interpretStrategicMergePatchError).
 */
import { applyJsonPatch, JsonPatchError, type JsonPatchOperation } from "../../apply/json-patch.ts";
import { mergePatch } from "../../apply/merge-patch.ts";
import { StrategicMergeError, strategicMergePatch } from "../../apply/strategic-merge/mod.ts";
import { CUSTOM_RESOURCE_PATCH_MEDIA_TYPES, decodeBody, mediaTypeOf, PATCH_MEDIA_TYPES } from "../../api/decode-body.ts";
import { newBadRequest, newInvalid, newUnsupportedMediaType, StatusError } from "../../api/errors.ts";
import { isPlainObject, type KubeObject } from "../../api/types.ts";
import { builtInSchemas } from "../../schema/lookup.ts";
import type { Schema } from "../../schema/types.ts";
import type { HandlerContext } from "./context.ts";
import { type FieldValidation, reportDuplicates } from "./write-options.ts";

export const JSON_PATCH = "application/json-patch+json";
export const MERGE_PATCH = "application/merge-patch+json";
export const STRATEGIC_MERGE_PATCH = "application/strategic-merge-patch+json";
export const APPLY_PATCH = "application/apply-patch+yaml";

const MAX_JSON_PATCH_OPERATIONS = 10000;

export interface PatchBody {
  mediaType: string;
  value: unknown;
}

/** The kind's built-in schema; kinds without one (custom resources) have no strategic merge patch. */
export function builtInSchemaOf(group: string, version: string, kind: string): Schema | undefined {
  return builtInSchemas.schemaForKind(group, version, kind);
}

/** The patch media type of the request, refused with 415 unless the kind accepts it. */
export function patchMediaType(ctx: HandlerContext, schema: Schema | undefined): string {
  const accepted = schema ? PATCH_MEDIA_TYPES : CUSTOM_RESOURCE_PATCH_MEDIA_TYPES;
  const mediaType = mediaTypeOf(ctx.request.headers.get("content-type"));
  if (!(accepted as readonly string[]).includes(mediaType)) throw newUnsupportedMediaType([...accepted]);
  return mediaType;
}

export async function readPatchBody(ctx: HandlerContext, mediaType: string, validation: FieldValidation): Promise<PatchBody> {
  const bytes = new Uint8Array(await ctx.request.arrayBuffer());
  const { value, duplicateFields } = await decodeBody(bytes, mediaType, { accepted: [mediaType] });
  reportDuplicates(ctx, duplicateFields, validation);
  ctx.logRequestObject?.(value);
  return { mediaType, value };
}

/** kube answers a patch that does not apply with a bare 422 (NewGenericServerResponse drops the reason). */
function newPatchNotApplicable(): StatusError {
  return new StatusError(422, "Invalid", "the server rejected our request due to an error in our request", {});
}

/** Applies `body` to `current`; `schema` (the kind's root schema) drives strategic merge patch. */
export function applyPatchBody(current: KubeObject, body: PatchBody, schema: Schema | undefined): KubeObject {
  const patched = patchedValue(current, body, schema);
  if (!isPlainObject(patched)) {
    throw newInvalid({ group: "", kind: "" }, "", [
      { type: "FieldValueInvalid", field: "patch", value: JSON.stringify(patched), detail: "the patched object is not a JSON object" },
    ]);
  }
  return patched as KubeObject;
}

function patchedValue(current: KubeObject, body: PatchBody, schema: Schema | undefined): unknown {
  switch (body.mediaType) {
    case JSON_PATCH:
      return applyJsonPatchBody(current, body.value);
    case MERGE_PATCH:
      if (!isPlainObject(body.value)) throw newBadRequest("Invalid JSON Patch");
      return mergePatch(current, body.value);
    case STRATEGIC_MERGE_PATCH:
      return applyStrategicBody(current, body.value, schema);
    default:
      throw newUnsupportedMediaType([...PATCH_MEDIA_TYPES]);
  }
}

function applyJsonPatchBody(current: KubeObject, operations: unknown): unknown {
  if (!Array.isArray(operations)) {
    throw newBadRequest(`json: cannot unmarshal ${goJsonKind(operations)} into Go value of type jsonpatch.Patch`);
  }
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
  if (!isPlainObject(patch)) {
    throw newBadRequest(`json: cannot unmarshal ${goJsonKind(patch)} into Go value of type map[string]interface {}`);
  }
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

/** How Go's encoding/json names a JSON value in its unmarshal errors. */
function goJsonKind(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (isPlainObject(value)) return "object";
  return typeof value === "boolean" ? "bool" : typeof value;
}
