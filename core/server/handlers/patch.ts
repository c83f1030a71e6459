/**
 * PATCH (spec 4.2-4.4): JSON patch, merge patch and, for built-in kinds, strategic merge patch, applied to the
 * current object inside the store's read-modify-write; server-side apply goes to its own handler.
 */
import { newNotFound } from "../../api/errors.ts";
import { goMarshal } from "../../api/go-values.ts";
import { reconcileNamespace } from "../../registry/object-meta.ts";
import { checkName } from "../../registry/subresource-writes.ts";
import { respondObject } from "../respond.ts";
import type { HandlerContext } from "./context.ts";
import { APPLY_PATCH, applyPatchBody, builtInSchemaOf, patchMediaType } from "./patch-body.ts";
import { readPatchBody } from "./patch-decode.ts";
import { checkPatchedObject } from "./patch-type-errors.ts";
import { reportPatchStrictErrors } from "./patch-strict.ts";
import { handleApply } from "./apply.ts";
import { writerFieldManager } from "./field-manager.ts";
import { hasLargeBody, parsePatchQuery } from "./write-options.ts";

export async function handlePatch(ctx: HandlerContext): Promise<Response> {
  const schema = builtInSchemaOf(ctx.type.group, ctx.type.version, ctx.type.kind);
  const mediaType = patchMediaType(ctx, schema);
  if (mediaType === APPLY_PATCH) return handleApply(ctx);
  const query = parsePatchQuery(ctx.url.searchParams, false);
  const body = await readPatchBody(ctx, mediaType, query.fieldValidation);
  const { object } = await ctx.store.update(ctx.info.namespace, ctx.info.name, (current) => {
    if (current === null) throw newNotFound(ctx.store.qualified, ctx.info.name);
    // The patched object keeps the resourceVersion it was patched onto unless the patch sets one: on a conflict the
    // store patches the newer object again (kube's patcher inside GuaranteedUpdate), and only a patch's own
    // resourceVersion can be stale.
    const patched = applyPatchBody(current, body, schema);
    checkPatchedObject(ctx.type, patched, mediaType, body.value);
    // kube's PatchResource decodes the patched object (its unknown fields) before Store.Update checks its version.
    const unknownFields = ctx.store.dropUnknownFields(patched, { fieldValidation: "Ignore" });
    const patchedJson = () => goMarshal(applyPatchBody(current, body, schema));
    reportPatchStrictErrors(body, patchedJson, unknownFields, query.fieldValidation, ctx.warnings);
    checkName(patched, ctx.info.name, ctx.info.namespace);
    if (ctx.type.namespaced && patched.metadata) reconcileNamespace(patched.metadata, ctx.info.namespace, true);
    return patched;
  }, {
    dryRun: query.dryRun,
    subresource: ctx.info.subresource,
    fieldValidation: query.fieldValidation,
    largeBody: hasLargeBody(ctx),
    warnings: ctx.warnings,
    unknownFieldsDropped: true,
    user: ctx.user,
    auditAnnotations: ctx.auditAnnotations,
    fieldManager: writerFieldManager(ctx, query),
  });
  return respondObject(object, 200, ctx.encode);
}
