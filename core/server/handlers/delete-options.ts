/** DeleteOptions from the query and the optional body (JSON, YAML or protobuf) of DELETE requests. */
import { decodeBody, mediaTypeOf } from "../../api/decode-body.ts";
import { type FieldError, newBadRequest, newInvalid } from "../../api/errors.ts";
import { decodeProtobufObject, isProtobufCodecError, PROTOBUF_MEDIA_TYPE } from "../../api/protobuf/mod.ts";
import { queryInt64, queryOptionalBool } from "../../api/query-params.ts";
import { isPlainObject } from "../../api/types.ts";
import type { DeleteOptions } from "../../registry/store-options.ts";
import type { HandlerContext } from "./context.ts";
import { dryRunValueErrors } from "./write-options.ts";
import { requestBytes } from "../../runtime/fetch-adapter.ts";

const PROPAGATION_POLICIES = ["Foreground", "Background", "Orphan"];

/**
 * A body field's grace period; the query's is an int64 parameter (Convert_Slice_string_To_int64). A negative one
 * stays negative here: the store's rest.BeforeDelete makes it 1 second.
 */
function integerOrAbsent(value: unknown, field: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n)) throw newBadRequest(`${field}: invalid value ${JSON.stringify(value)}: must be an integer`);
  return n;
}

/** kube's delete handler decodes bodies with the meta scheme's codecs, whatever the kind: JSON, YAML and protobuf. */
const DELETE_OPTIONS_MEDIA_TYPES = ["application/json", "application/yaml", PROTOBUF_MEDIA_TYPE];

async function decodeDeleteOptionsBody(bytes: Uint8Array, contentType: string | null): Promise<unknown> {
  if (mediaTypeOf(contentType) !== PROTOBUF_MEDIA_TYPE) {
    return (await decodeBody(bytes, contentType, { accepted: DELETE_OPTIONS_MEDIA_TYPES })).value;
  }
  try {
    const decoded = decodeProtobufObject(bytes);
    // kube (endpoints/handlers DeleteResource) refuses a decoded object that is not a DeleteOptions.
    if (decoded.kind !== "DeleteOptions") throw newBadRequest("decoded object cannot be converted to DeleteOptions");
    return decoded.object;
  } catch (e) {
    if (isProtobufCodecError(e)) throw newBadRequest(e.message);
    throw e;
  }
}

export interface DeleteRequest extends DeleteOptions {
  /** The client sent orphanDependents=false: a deletion left pending answers 202 (kube's DeleteResource). */
  cascadeAsked: boolean;
}

/** The query's DeleteOptions, as the body would carry them (kube's ParameterCodec.DecodeParameters). */
function queryOptions(query: URLSearchParams): Record<string, unknown> {
  return {
    propagationPolicy: query.get("propagationPolicy") ?? undefined,
    orphanDependents: queryOptionalBool(query, "orphanDependents"),
    gracePeriodSeconds: queryInt64(query, "gracePeriodSeconds"),
    // A bare `?dryRun` asks for nothing (spec 4.8.5).
    dryRun: query.getAll("dryRun").filter((v) => v !== ""),
  };
}

/** kube's ValidateDeleteOptions: every error in one 422, in its order. */
function validateDeleteOptions(policy: unknown, orphanDependents: boolean | undefined, dryRun: string[]): void {
  const errors: FieldError[] = [];
  if (orphanDependents !== undefined && policy !== undefined) {
    errors.push({
      type: "FieldValueInvalid",
      field: "propagationPolicy",
      value: policy,
      detail: "orphanDependents and deletionPropagation cannot be both set",
    });
  }
  if (policy !== undefined && !PROPAGATION_POLICIES.includes(policy as string)) {
    errors.push({
      type: "FieldValueNotSupported",
      field: "propagationPolicy",
      value: policy,
      detail: `supported values: ${[...PROPAGATION_POLICIES, "nil"].map((p) => JSON.stringify(p)).join(", ")}`,
    });
  }
  errors.push(...dryRunValueErrors(dryRun));
  if (errors.length > 0) throw newInvalid({ group: "meta.k8s.io", kind: "DeleteOptions" }, "", errors);
}

/**
 * The request's DeleteOptions: kube's DeleteResource and DeleteCollection read them from the body when there is
 * one, else from the query, never from both.
 */
export async function readDeleteOptions(ctx: HandlerContext): Promise<DeleteRequest> {
  const bytes = await requestBytes(ctx.request);
  let options: Record<string, unknown>;
  if (bytes.length > 0) {
    const decoded = await decodeDeleteOptionsBody(bytes, ctx.request.headers.get("content-type"));
    if (!isPlainObject(decoded)) throw newBadRequest("DeleteOptions must be a JSON object");
    ctx.logRequestObject?.(decoded);
    options = decoded;
  } else {
    options = queryOptions(ctx.url.searchParams);
  }
  const policy = options.propagationPolicy ?? undefined;
  const orphanDependents = typeof options.orphanDependents === "boolean" ? options.orphanDependents : undefined;
  const dryRun = Array.isArray(options.dryRun) ? options.dryRun.map(String) : [];
  validateDeleteOptions(policy, orphanDependents, dryRun);
  return {
    dryRun: dryRun.length > 0,
    gracePeriodSeconds: integerOrAbsent(options.gracePeriodSeconds, "gracePeriodSeconds"),
    preconditions: isPlainObject(options.preconditions) ? options.preconditions as DeleteOptions["preconditions"] : undefined,
    propagationPolicy: policy as DeleteOptions["propagationPolicy"],
    orphanDependents,
    user: ctx.user,
    cascadeAsked: orphanDependents === false,
    auditAnnotations: ctx.auditAnnotations,
  };
}
