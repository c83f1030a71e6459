/** POST of a new object. */
import { respondObject } from "../respond.ts";
import type { HandlerContext } from "./context.ts";
import { writerFieldManager } from "./field-manager.ts";
import { parseWriteQuery, readObjectBody } from "./write-options.ts";

export async function handleCreate(ctx: HandlerContext): Promise<Response> {
  const query = parseWriteQuery(ctx.url.searchParams, "CreateOptions");
  const body = await readObjectBody(ctx, query.fieldValidation);
  const created = await ctx.store.create(ctx.info.namespace, body, { dryRun: query.dryRun, fieldValidation: query.fieldValidation, warnings: ctx.warnings, user: ctx.user, auditAnnotations: ctx.auditAnnotations, fieldManager: writerFieldManager(ctx, query) });
  return respondObject(created, 201, ctx.encode);
}
