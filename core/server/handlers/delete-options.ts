/** DeleteOptions from the query and the optional body (JSON, YAML or protobuf) of DELETE requests. */
import { decodeBody, mediaTypeOf } from "../../api/decode-body.ts";
import { newBadRequest, newInvalid } from "../../api/errors.ts";
import { decodeProtobufObject, isProtobufCodecError, PROTOBUF_MEDIA_TYPE } from "../../api/protobuf/mod.ts";
import { queryInt64, queryOptionalBool } from "../../api/query-params.ts";
import { isPlainObject } from "../../api/types.ts";
import type { DeleteOptions } from "../../registry/store-options.ts";
import type { HandlerContext } from "./context.ts";
import { parseDryRun } from "./write-options.ts";

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

export async function readDeleteOptions(ctx: HandlerContext): Promise<DeleteRequest> {
  const bytes = new Uint8Array(await ctx.request.arrayBuffer());
  let body: Record<string, unknown> = {};
  if (bytes.length > 0) {
    const decoded = await decodeDeleteOptionsBody(bytes, ctx.request.headers.get("content-type"));
    if (!isPlainObject(decoded)) throw newBadRequest("DeleteOptions must be a JSON object");
    ctx.logRequestObject?.(decoded);
    body = decoded;
  }
  const query = ctx.url.searchParams;
  const policy = (body.propagationPolicy ?? query.get("propagationPolicy") ?? undefined) as string | undefined;
  if (policy !== undefined && !PROPAGATION_POLICIES.includes(policy)) {
    throw newInvalid({ group: "meta.k8s.io", kind: "DeleteOptions" }, "", [{
      type: "FieldValueNotSupported",
      field: "propagationPolicy",
      value: policy,
      detail: `supported values: ${[...PROPAGATION_POLICIES, "nil"].map((p) => JSON.stringify(p)).join(", ")}`,
    }]);
  }
  const orphanDependents = typeof body.orphanDependents === "boolean"
    ? body.orphanDependents
    : queryOptionalBool(query, "orphanDependents");
  if (orphanDependents !== undefined && policy !== undefined) {
    throw newInvalid({ group: "meta.k8s.io", kind: "DeleteOptions" }, "", [{
      type: "FieldValueInvalid",
      field: "propagationPolicy",
      value: policy,
      detail: "orphanDependents and deletionPropagation cannot be both set",
    }]);
  }
  const propagationPolicy =
    (orphanDependents === undefined ? policy : orphanDependents ? "Orphan" : "Background") as DeleteOptions["propagationPolicy"];
  const bodyDryRun = Array.isArray(body.dryRun) && body.dryRun.includes("All");
  const preconditions = isPlainObject(body.preconditions) ? body.preconditions as DeleteOptions["preconditions"] : undefined;
  return {
    dryRun: bodyDryRun || parseDryRun(query, "DeleteOptions"),
    gracePeriodSeconds: integerOrAbsent(body.gracePeriodSeconds ?? queryInt64(query, "gracePeriodSeconds"), "gracePeriodSeconds"),
    preconditions,
    propagationPolicy,
    user: ctx.user,
    cascadeAsked: orphanDependents !== undefined && String(orphanDependents) === "false",
    auditAnnotations: ctx.auditAnnotations,
  };
}
