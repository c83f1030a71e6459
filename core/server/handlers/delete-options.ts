/** DeleteOptions from the query and the optional JSON body of DELETE requests. */
import { decodeBody } from "../../api/decode-body.ts";
import { newBadRequest, newInvalid } from "../../api/errors.ts";
import { isPlainObject } from "../../api/types.ts";
import type { DeleteOptions } from "../../registry/store.ts";
import type { HandlerContext } from "./context.ts";
import { parseDryRun } from "./write-options.ts";

const PROPAGATION_POLICIES = ["Foreground", "Background", "Orphan"];

function nonNegativeInteger(value: unknown, field: string): number | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  const n = Number(value);
  if (!Number.isInteger(n)) throw newBadRequest(`${field}: invalid value ${JSON.stringify(value)}: must be an integer`);
  return Math.max(n, 0);
}

export async function readDeleteOptions(ctx: HandlerContext): Promise<DeleteOptions> {
  const bytes = new Uint8Array(await ctx.request.arrayBuffer());
  let body: Record<string, unknown> = {};
  if (bytes.length > 0) {
    const decoded = decodeBody(bytes, ctx.request.headers.get("content-type"), { accepted: ["application/json", "application/yaml"] }).value;
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
  const orphanDependents = body.orphanDependents ?? query.get("orphanDependents") ?? undefined;
  if (orphanDependents !== undefined && policy !== undefined) {
    throw newInvalid({ group: "meta.k8s.io", kind: "DeleteOptions" }, "", [{
      type: "FieldValueInvalid",
      field: "propagationPolicy",
      value: policy,
      detail: "orphanDependents and deletionPropagation cannot be both set",
    }]);
  }
  const propagationPolicy = (orphanDependents === undefined ? policy : String(orphanDependents) === "true" ? "Orphan" : "Background") as DeleteOptions["propagationPolicy"];
  const bodyDryRun = Array.isArray(body.dryRun) && body.dryRun.includes("All");
  const preconditions = isPlainObject(body.preconditions) ? body.preconditions as DeleteOptions["preconditions"] : undefined;
  return {
    dryRun: bodyDryRun || parseDryRun(query, "DeleteOptions"),
    gracePeriodSeconds: nonNegativeInteger(body.gracePeriodSeconds ?? query.get("gracePeriodSeconds") ?? undefined, "gracePeriodSeconds"),
    preconditions,
    propagationPolicy,
    user: ctx.user,
    auditAnnotations: ctx.auditAnnotations,
  };
}
