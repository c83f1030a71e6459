/** POST of a new object. */
import { StatusError } from "../../api/errors.ts";
import { storedTextWithVersion } from "../../registry/codec.ts";
import { respondJsonText, respondObject } from "../respond.ts";
import type { HandlerContext } from "./context.ts";
import { writerFieldManager } from "./field-manager.ts";
import { hasLargeBody, parseWriteQuery, readObjectBody } from "./write-options.ts";

/** kube's crdHandler serveResource: a MethodNotSupported error whose message names the terminating CRD. */
function createWhileTerminating(ctx: HandlerContext): StatusError {
  const details = { kind: ctx.type.resource, group: ctx.type.group || undefined };
  return new StatusError(405, "MethodNotAllowed", "create not allowed while custom resource definition is terminating", details);
}

export async function handleCreate(ctx: HandlerContext): Promise<Response> {
  if (ctx.store.terminating) throw createWhileTerminating(ctx);
  const query = parseWriteQuery(ctx.url.searchParams, "CreateOptions");
  const body = await readObjectBody(ctx, query.fieldValidation);
  const created = await ctx.store.createStored(ctx.info.namespace, body, {
    dryRun: query.dryRun,
    fieldValidation: query.fieldValidation,
    largeBody: hasLargeBody(ctx),
    warnings: ctx.warnings,
    user: ctx.user,
    auditAnnotations: ctx.auditAnnotations,
    fieldManager: writerFieldManager(ctx, query),
  });
  // Compact JSON of a kind served as stored is the written text with its resourceVersion put in, as a GET answers it.
  if ("kv" in created && ctx.encode.representation.format === "json" && !ctx.encode.pretty && !ctx.store.convertsOnRead) {
    return respondJsonText(storedTextWithVersion(created.kv), 201);
  }
  return respondObject("kv" in created ? await ctx.store.decode(created.kv) : created.object, 201, ctx.encode);
}
