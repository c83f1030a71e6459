/** PATCH with a JSON merge patch (RFC 7386); the other patch types arrive with the apply engine. */
import { mergePatch } from "../../apply/merge-patch.ts";
import { decodeBody } from "../../api/decode-body.ts";
import { newBadRequest, newNotFound } from "../../api/errors.ts";
import { isPlainObject, type KubeObject } from "../../api/types.ts";
import { respondObject } from "../respond.ts";
import type { HandlerContext } from "./context.ts";
import { parseWriteQuery, reportDuplicates } from "./write-options.ts";

const SUPPORTED_PATCH_TYPES = ["application/merge-patch+json"];

export async function handlePatch(ctx: HandlerContext): Promise<Response> {
  const query = parseWriteQuery(ctx.url.searchParams, "PatchOptions");
  const bytes = new Uint8Array(await ctx.request.arrayBuffer());
  const { value: patch, duplicateFields } = decodeBody(bytes, ctx.request.headers.get("content-type"), { accepted: SUPPORTED_PATCH_TYPES });
  reportDuplicates(ctx, duplicateFields, query.fieldValidation);
  if (!isPlainObject(patch)) throw newBadRequest("the merge patch must be a JSON object");
  const { object } = await ctx.store.update(ctx.info.namespace, ctx.info.name, (current) => {
    if (current === null) throw newNotFound(ctx.store.qualified, ctx.info.name);
    const patched = mergePatch(current, patch) as KubeObject;
    // Only a resourceVersion the patch itself carries is a precondition; otherwise conflicts are retried.
    if (!isPlainObject(patch.metadata) || patch.metadata.resourceVersion === undefined) delete patched.metadata.resourceVersion;
    return patched;
  }, { dryRun: query.dryRun, subresource: ctx.info.subresource, fieldValidation: query.fieldValidation, warnings: ctx.warnings });
  return respondObject(object, 200, ctx.encode);
}
