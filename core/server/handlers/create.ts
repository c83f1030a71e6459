/** POST of a new object. */
import { StatusError } from "../../api/errors.ts";
import { respondObject } from "../respond.ts";
import type { HandlerContext } from "./context.ts";
import { writerFieldManager } from "./field-manager.ts";
import { respondStoredText, servesStoredText } from "./stored-text.ts";
import { hasLargeBody, parseWriteQuery, readObjectBody } from "./write-options.ts";
import { queryOf } from "../../api/query-params.ts";

/** kube's crdHandler serveResource: a MethodNotSupported error whose message names the terminating CRD. */
function createWhileTerminating(ctx: HandlerContext): StatusError {
  const details = { kind: ctx.type.resource, group: ctx.type.group || undefined };
  return new StatusError(405, "MethodNotAllowed", "create not allowed while custom resource definition is terminating", details);
}

export async function handleCreate(ctx: HandlerContext): Promise<Response> {
  if (ctx.store.terminating) throw createWhileTerminating(ctx);
  const query = parseWriteQuery(queryOf(ctx.url), "CreateOptions");
  const body = await readObjectBody(ctx, query.fieldValidation);
  // kube's CreateResource records the decoder's unknown fields before anything else can fail.
  ctx.store.dropUnknownFields(body, { fieldValidation: query.fieldValidation, warnings: ctx.warnings });
  const created = await ctx.store.createStored(ctx.info.namespace, body, {
    dryRun: query.dryRun,
    fieldValidation: query.fieldValidation,
    largeBody: hasLargeBody(ctx),
    warnings: ctx.warnings,
    unknownFieldsDropped: true,
    bodyOwned: true,
    user: ctx.user,
    auditAnnotations: ctx.auditAnnotations,
    fieldManager: writerFieldManager(ctx, query),
  });
  if ("kv" in created && servesStoredText(ctx)) return respondStoredText(created.kv, 201);
  return respondObject(await ctx.store.createdObject(created), 201, ctx.encode);
}
