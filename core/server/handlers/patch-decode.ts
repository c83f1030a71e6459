/**
 * Decoding a PATCH body as kube-apiserver's patchers do (endpoints/handlers/patch.go). Under fieldValidation Warn
 * (the default) and Strict, applyJSPatch first decodes a JSON patch into []jsonPatchOp and a merge patch into a map
 * with kjson.UnmarshalStrict, refusing what does not fit with "error decoding patch: …"; under Ignore json-patch's
 * own DecodePatch and MergePatch speak. strategicPatchObject decodes into a map either way, and a null patch of
 * either kind decodes into nothing to apply.
 * kube decodes the patch inside the store's update, after the current object was found: a malformed patch of a
 * missing object is a 404, so a refusal here is kept in the PatchBody and thrown when the patch is applied.
 */
import { decodeBody } from "../../api/decode-body.ts";
import { newBadRequest, StatusError } from "../../api/errors.ts";
import { goCannotUnmarshal, goJsonKind } from "../../api/go-values.ts";
import { isPlainObject } from "../../api/types.ts";
import type { HandlerContext } from "./context.ts";
import type { FieldValidation } from "./write-options.ts";
import { requestBytes } from "../../runtime/fetch-adapter.ts";

export const JSON_PATCH = "application/json-patch+json";
export const MERGE_PATCH = "application/merge-patch+json";
export const STRATEGIC_MERGE_PATCH = "application/strategic-merge-patch+json";

/** errBadJSONPatch of evanphx/json-patch, which MergePatch returns for a patch that is not a JSON object. */
export const BAD_JSON_PATCH = "Invalid JSON Patch";

export interface PatchBody {
  mediaType: string;
  value: unknown;
  /** Why the body cannot be applied, thrown when it would be. */
  refusal?: StatusError;
  /** The strict errors of decoding it, reported with the patched object's (patch-strict.ts). */
  strictErrors: string[];
}

/** kube's jsonPatchOp fields that are strings; kjson matches their names case-sensitively. */
const JSON_PATCH_OP_STRINGS = new Set(["op", "path", "from"]);

/** The first unmarshal error of a JSON patch, as UnmarshalStrict into []jsonPatchOp or DecodePatch (Ignore) words it. */
function jsonPatchDecodeError(value: unknown, strict: boolean): string | undefined {
  if (value === null) return undefined;
  if (!Array.isArray(value)) return goCannotUnmarshal(value, strict ? "[]handlers.jsonPatchOp" : "jsonpatch.Patch");
  for (const operation of value) {
    if (operation === null) continue;
    if (!isPlainObject(operation)) return goCannotUnmarshal(operation, strict ? "handlers.jsonPatchOp" : "jsonpatch.Operation");
    if (!strict) continue;
    for (const [field, fieldValue] of Object.entries(operation)) {
      if (!JSON_PATCH_OP_STRINGS.has(field) || fieldValue === null || typeof fieldValue === "string") continue;
      return `json: cannot unmarshal ${goJsonKind(fieldValue)} into Go struct field jsonPatchOp.${field} of type string`;
    }
  }
  return undefined;
}

/** What the patch type's decoder says of a body it cannot take, or undefined when it decodes. */
function decodeError(mediaType: string, value: unknown, strict: boolean): StatusError | undefined {
  if (mediaType === JSON_PATCH) {
    const error = jsonPatchDecodeError(value, strict);
    if (error === undefined) return undefined;
    return newBadRequest(strict ? `error decoding patch: ${error}` : error);
  }
  if (value === null || isPlainObject(value)) return undefined;
  const mapError = goCannotUnmarshal(value, "map[string]interface {}");
  if (mediaType === STRATEGIC_MERGE_PATCH) return newBadRequest(mapError);
  // Merge patch under Ignore: MergePatch takes an array as the whole new document (refused when decoded as the kind).
  if (!strict) return Array.isArray(value) ? undefined : newBadRequest(BAD_JSON_PATCH);
  return newBadRequest(`error decoding patch: ${mapError}`);
}

const JSON_PATCH_OP_FIELDS = new Set(["op", "path", "from", "value"]);

/**
 * The strict errors of decoding the patch (kjson.UnmarshalStrict into []jsonPatchOp or a map): its duplicate fields,
 * and a JSON patch's unknown operation fields, operation by operation, prefixed "json patch".
 */
function patchStrictErrors(mediaType: string, value: unknown, duplicateFields: string[]): string[] {
  const duplicates = duplicateFields.map((path) => `duplicate field "${path}"`);
  if (mediaType !== JSON_PATCH || !Array.isArray(value)) return duplicates;
  const byOperation = value.map((operation, index) => {
    const unknown = isPlainObject(operation) ? Object.keys(operation).filter((key) => !JSON_PATCH_OP_FIELDS.has(key)) : [];
    const inOperation = duplicateFields.filter((path) => path.startsWith(`[${index}]`)).map((path) => `duplicate field "${path}"`);
    return [...unknown.map((key) => `unknown field "[${index}].${key}"`), ...inOperation];
  });
  return byOperation.flat().map((error) => `json patch ${error}`);
}

/** A JSON syntax error as each patch type's decoder reports it. */
function syntaxErrorOf(mediaType: string, strict: boolean): (goMessage: string) => StatusError {
  return (goMessage) => {
    if (mediaType === STRATEGIC_MERGE_PATCH) return newBadRequest(goMessage);
    if (strict) return newBadRequest(`error decoding patch: ${goMessage}`);
    return newBadRequest(mediaType === MERGE_PATCH ? BAD_JSON_PATCH : goMessage);
  };
}

/** A null JSON patch is no operations and a null strategic merge patch an empty map (Go decodes null into nil). */
function nullPatchValue(mediaType: string): unknown {
  if (mediaType === JSON_PATCH) return [];
  return mediaType === STRATEGIC_MERGE_PATCH ? {} : null;
}

export async function readPatchBody(ctx: HandlerContext, mediaType: string, validation: FieldValidation): Promise<PatchBody> {
  const bytes = await requestBytes(ctx.request);
  const strict = validation !== "Ignore";
  let decoded;
  try {
    decoded = await decodeBody(bytes, mediaType, { accepted: [mediaType], syntaxError: syntaxErrorOf(mediaType, strict) });
  } catch (e) {
    if (e instanceof StatusError && e.code === 400) return { mediaType, value: undefined, refusal: e, strictErrors: [] };
    throw e;
  }
  const { value, duplicateFields } = decoded;
  ctx.logRequestObject?.(value);
  const refusal = decodeError(mediaType, value, strict);
  if (refusal) return { mediaType, value, refusal, strictErrors: [] };
  const strictErrors = strict ? patchStrictErrors(mediaType, value, duplicateFields) : [];
  return { mediaType, value: value === null ? nullPatchValue(mediaType) : value, strictErrors };
}
