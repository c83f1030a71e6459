/** Query options shared by the writing verbs (spec 4.3, 4.7, 4.8) and the decoding of their bodies. */
import { decodeBody, mediaTypeOf, newMissingKindError } from "../../api/decode-body.ts";
import { decodeProtobufObject, isProtobufCodecError, PROTOBUF_MEDIA_TYPE } from "../../api/protobuf/mod.ts";
import { type FieldError, newBadRequest, newInvalid } from "../../api/errors.ts";
import { byteLength, GO_PRINTABLE, goStringSlice } from "../../api/go-text.ts";
import { queryBool } from "../../api/query-params.ts";
import { isPlainObject, type KubeObject } from "../../api/types.ts";
import { checkFields, newStrictDecodingError } from "../../schema/field-check.ts";
import { completeRequestBody, requestBytes } from "../../runtime/fetch-adapter.ts";
import type { HandlerContext } from "./context.ts";

export type FieldValidation = "Ignore" | "Warn" | "Strict";

/** Text bodies; protobuf bodies of built-in kinds go through the protobuf codec first. */
const BODY_MEDIA_TYPES = ["application/json", "application/yaml", PROTOBUF_MEDIA_TYPE];

function decodeProtobufBody(bytes: Uint8Array): KubeObject {
  try {
    return decodeProtobufObject(bytes).object as KubeObject;
  } catch (e) {
    if (isProtobufCodecError(e)) throw newBadRequest(e.message);
    throw e;
  }
}

export interface WriteQuery {
  dryRun: boolean;
  fieldValidation: FieldValidation;
  fieldManager?: string;
}

export interface PatchQuery extends WriteQuery {
  /** PatchOptions.force, a pointer bool in kube: only apply may carry it. */
  force: boolean;
}

/** Which options kind the query belongs to, for kube's `CreateOptions.meta.k8s.io "" is invalid` messages. */
export type OptionsKind = "CreateOptions" | "UpdateOptions" | "PatchOptions" | "DeleteOptions";

const FIELD_VALIDATION_VALUES = ["", "Ignore", "Strict", "Warn"];

/** kube's ValidateDryRun: every value must be All; the error shows the whole list, as Go prints a []string. */
export function dryRunValueErrors(values: string[]): FieldError[] {
  if (values.every((v) => v === "All")) return [];
  return [{
    type: "FieldValueNotSupported",
    field: "dryRun",
    value: values,
    valueText: goStringSlice(values),
    detail: 'supported values: "All"',
  }];
}

function dryRunErrors(query: URLSearchParams): FieldError[] {
  // A bare `?dryRun` asks for nothing (spec 4.8.5): the request runs with its side effects.
  return dryRunValueErrors(query.getAll("dryRun").filter((v) => v !== ""));
}

function isDryRun(query: URLSearchParams): boolean {
  return query.getAll("dryRun").some((v) => v !== "");
}

export function parseDryRun(query: URLSearchParams, kind: OptionsKind): boolean {
  const errors = dryRunErrors(query);
  if (errors.length > 0) throw newInvalid({ group: "meta.k8s.io", kind }, "", errors);
  return isDryRun(query);
}

/**
 * kube's fieldValidation() with the ServerSideFieldValidation gate off: every valid directive means Ignore. An
 * invalid one is left for ValidateFieldValidation, which still rejects it.
 */
export function withFieldValidationIgnored(url: URL): URL {
  if (!FIELD_VALIDATION_VALUES.includes(url.searchParams.get("fieldValidation") ?? "")) return url;
  const copy = new URL(url);
  copy.searchParams.set("fieldValidation", "Ignore");
  return copy;
}

const FIELD_MANAGER_MAX_BYTES = 128;

/** ValidateFieldManager: at most 128 bytes, and one error per character that is not printable, at its byte offset. */
function fieldManagerErrors(fieldManager: string): FieldError[] {
  const errors: FieldError[] = [];
  if (byteLength(fieldManager) > FIELD_MANAGER_MAX_BYTES) {
    errors.push({
      type: "FieldValueTooLong",
      field: "fieldManager",
      value: fieldManager,
      detail: `must have at most ${FIELD_MANAGER_MAX_BYTES} bytes`,
    });
  }
  let offset = 0;
  for (const char of fieldManager) {
    if (!GO_PRINTABLE.test(char)) {
      const codePoint = char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0");
      errors.push({
        type: "FieldValueInvalid",
        field: "fieldManager",
        value: fieldManager,
        detail: `invalid character U+${codePoint} (at position ${offset})`,
      });
    }
    offset += byteLength(char);
  }
  return errors;
}

/**
 * ValidateCreateOptions / ValidateUpdateOptions / ValidatePatchOptions (apimachinery's metav1 validation):
 * the field manager, dryRun and fieldValidation checks, all reported in one 422.
 */
function writeOptionErrors(query: URLSearchParams): FieldError[] {
  const errors: FieldError[] = [];
  errors.push(...fieldManagerErrors(query.get("fieldManager") ?? ""));
  errors.push(...dryRunErrors(query));
  // ValidateFieldValidation: NotSupported with kube's sorted list of allowed directives.
  const validation = query.get("fieldValidation") ?? "";
  if (!FIELD_VALIDATION_VALUES.includes(validation)) {
    errors.push({
      type: "FieldValueNotSupported",
      field: "fieldValidation",
      value: validation,
      detail: `supported values: ${FIELD_VALIDATION_VALUES.map((v) => JSON.stringify(v)).join(", ")}`,
    });
  }
  return errors;
}

function writeQueryOf(query: URLSearchParams): WriteQuery {
  return {
    dryRun: isDryRun(query),
    fieldValidation: (query.get("fieldValidation") || "Warn") as FieldValidation,
    fieldManager: query.get("fieldManager") ?? undefined,
  };
}

export function parseWriteQuery(query: URLSearchParams, kind: "CreateOptions" | "UpdateOptions"): WriteQuery {
  // Most writes send no query: every option at its default, which ValidateCreateOptions and ValidateUpdateOptions accept.
  if (query.size === 0) return { dryRun: false, fieldValidation: "Warn", fieldManager: undefined };
  const errors = writeOptionErrors(query);
  if (errors.length > 0) throw newInvalid({ group: "meta.k8s.io", kind }, "", errors);
  return writeQueryOf(query);
}

/** PatchOptions: ValidatePatchOptions adds force (non-apply patches only) and a required field manager (apply). */
export function parsePatchQuery(query: URLSearchParams, apply: boolean): PatchQuery {
  const errors: FieldError[] = [];
  if (!apply && query.has("force")) {
    errors.push({ type: "FieldValueForbidden", field: "force", detail: "may not be specified for non-apply patch" });
  }
  if (apply && (query.get("fieldManager") ?? "") === "") {
    errors.push({ type: "FieldValueRequired", field: "fieldManager", detail: "is required for apply patch" });
  }
  errors.push(...writeOptionErrors(query));
  if (errors.length > 0) throw newInvalid({ group: "meta.k8s.io", kind: "PatchOptions" }, "", errors);
  return { ...writeQueryOf(query), force: queryBool(query, "force") };
}

/** Bodies from this size on have the store's whole-object steps each take an event-loop turn (WriteOptions.largeBody). */
const LARGE_BODY_BYTES = 256 * 1024;

/** Whether the request declares a large body (by Content-Length, as kube's request body limits read it first). */
export function hasLargeBody(ctx: HandlerContext): boolean {
  // A body that came whole is as long as its declared length.
  const bytes = completeRequestBody(ctx.request)?.byteLength ?? Number(ctx.request.headers.get("content-length") ?? 0);
  return bytes >= LARGE_BODY_BYTES;
}

/** Reads and decodes the body; duplicate fields become warnings or a 400 by the fieldValidation directive. */
export async function readObjectBody(ctx: HandlerContext, validation: FieldValidation): Promise<KubeObject> {
  const read = requestBytes(ctx.request);
  // A body in hand is decoded without waiting a turn.
  const bytes = read instanceof Promise ? await read : read;
  const contentType = ctx.request.headers.get("content-type");
  if (
    mediaTypeOf(contentType) === PROTOBUF_MEDIA_TYPE && ctx.store.definition.protobuf
  ) {
    const decoded = checkEnvelope(ctx, decodeProtobufBody(bytes));
    ctx.logRequestObject?.(decoded);
    return decoded;
  }
  const body = await decodeBody(bytes, contentType, { accepted: BODY_MEDIA_TYPES, kind: ctx.type.kind });
  const value = body.value as KubeObject;
  if (validation === "Strict" && body.duplicateFields.length > 0) {
    // kube refuses unknown and duplicate fields in one message; the store would only see the unknown ones.
    const { unknownFields } = checkFields(ctx.type, structuredClone(value));
    throw newStrictDecodingError(ctx.type, value, unknownFields, body.duplicateFields);
  }
  reportDuplicates(ctx, body.duplicateFields, validation);
  if (isCustomResourceBody(ctx) && (value.kind === undefined || value.kind === null || value.kind === "")) {
    const version = typeof value.apiVersion === "string" && value.apiVersion !== "" ? value.apiVersion.split("/").pop()! : ctx.type.version;
    throw newMissingKindError({ kind: ctx.type.kind, version }, bytes, validation !== "Ignore");
  }
  const decoded = checkEnvelope(ctx, value);
  ctx.logRequestObject?.(decoded);
  return decoded;
}

/** The object of a custom resource type (or its status), which kube decodes as Unstructured; a scale body is typed. */
function isCustomResourceBody(ctx: HandlerContext): boolean {
  return ctx.store.definition.extension !== undefined && ctx.type.kind === ctx.store.definition.type.kind;
}

export function reportDuplicates(ctx: HandlerContext, duplicateFields: string[], validation: FieldValidation): void {
  if (duplicateFields.length === 0 || validation === "Ignore") return;
  const messages = duplicateFields.map((f) => `duplicate field "${f}"`);
  if (validation === "Strict") throw newStrictDecodingError(ctx.type, undefined, [], duplicateFields);
  ctx.warnings.push(...messages);
}

/** apiVersion and kind in the body, when present, must be those of the endpoint. */
function checkEnvelope(ctx: HandlerContext, obj: KubeObject): KubeObject {
  const expected = ctx.type.group === "" ? ctx.type.version : `${ctx.type.group}/${ctx.type.version}`;
  if (obj.apiVersion !== undefined && obj.apiVersion !== expected) {
    throw newBadRequest(`the API version in the data (${String(obj.apiVersion)}) does not match the expected API version (${expected})`);
  }
  if (obj.kind !== undefined && obj.kind !== ctx.type.kind) {
    // kube's transformDecodeError prefix; the reason after the colon is ours.
    const version = String(obj.apiVersion ?? expected).split("/").pop();
    throw newBadRequest(
      `${
        String(obj.kind)
      } in version "${version}" cannot be handled as a ${ctx.type.kind}: the kind of the body is not the kind of this resource`,
    );
  }
  if (obj.metadata !== undefined && !isPlainObject(obj.metadata)) throw newBadRequest("metadata must be an object");
  return obj;
}
