/** PUT: replace an object (or its status), creating it where the kind allows (spec 4.2). */
import { reconcileNamespace } from "../../registry/object-meta.ts";
import { checkName } from "../../registry/subresource-writes.ts";
import { respondObject } from "../respond.ts";
import type { HandlerContext } from "./context.ts";
import { writerFieldManager } from "./field-manager.ts";
import { hasLargeBody, parseWriteQuery, readObjectBody } from "./write-options.ts";
import { queryOf } from "../../api/query-params.ts";

export async function handleUpdate(ctx: HandlerContext): Promise<Response> {
  const query = parseWriteQuery(queryOf(ctx.url), "UpdateOptions");
  const body = await readObjectBody(ctx, query.fieldValidation);
  // kube's UpdateResource records the decoder's unknown fields before checkName and the storage update can fail.
  ctx.store.dropUnknownFields(body, { fieldValidation: query.fieldValidation, warnings: ctx.warnings });
  checkName(body, ctx.info.name, ctx.info.namespace);
  if (ctx.type.namespaced) reconcileNamespace(body.metadata ?? {}, ctx.info.namespace, true);
  const { object, created } = await ctx.store.update(ctx.info.namespace, ctx.info.name, () => body, {
    dryRun: query.dryRun,
    subresource: ctx.info.subresource,
    fieldValidation: query.fieldValidation,
    largeBody: hasLargeBody(ctx),
    warnings: ctx.warnings,
    unknownFieldsDropped: true,
    user: ctx.user,
    auditAnnotations: ctx.auditAnnotations,
    fieldManager: writerFieldManager(ctx, query),
    replace: true,
  });
  return respondObject(object, created ? 201 : 200, ctx.encode);
}
