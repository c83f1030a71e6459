/**
 * POST pods/<name>/binding (kube's BindingREST.Create): assigns the pod to the Binding's target node and
 * answers 201 with a Success Status; a pod already bound or being deleted answers 409.
 */
import { type FieldError, newBadRequest, newInvalid, newMethodNotSupported } from "../../api/errors.ts";
import { isPlainObject } from "../../api/types.ts";
import { bindPod } from "../../controllers/mod.ts";
import { newResourceNotFound } from "../resource-route.ts";
import { respondPlain } from "../respond.ts";
import { virtualHandlerKey } from "../virtual-handlers.ts";
import type { Handler, HandlerContext } from "./context.ts";
import { parseWriteQuery, readObjectBody } from "./write-options.ts";

const BINDING = { group: "", kind: "Binding" };

export function podBindingHandlers(): [string, Handler][] {
  return [[virtualHandlerKey("", "pods", "binding"), handlePodBinding]];
}

async function handlePodBinding(ctx: HandlerContext): Promise<Response> {
  if (ctx.info.namespace === "") throw newResourceNotFound();
  if (ctx.info.verb !== "create") throw newMethodNotSupported({ group: "", resource: "pods/binding" }, ctx.info.verb);
  const query = parseWriteQuery(ctx.url.searchParams, "CreateOptions");
  const body = await readObjectBody({ ...ctx, type: { ...ctx.type, kind: "Binding" } }, query.fieldValidation);
  const bodyName = body.metadata?.name;
  if (bodyName !== undefined && bodyName !== ctx.info.name) throw newBadRequest("name in URL does not match name in Binding object");
  const target = isPlainObject(body.target) ? body.target : {};
  const errors: FieldError[] = [];
  if (target.kind !== undefined && target.kind !== "" && target.kind !== "Node") {
    errors.push({ type: "FieldValueInvalid", field: "target.kind", value: target.kind, detail: "must be empty or 'Node'" });
  }
  if (!target.name) errors.push({ type: "FieldValueRequired", field: "target.name", detail: "" });
  if (errors.length > 0) throw newInvalid(BINDING, ctx.info.name, errors);
  if (!query.dryRun) {
    const annotations = isPlainObject(body.metadata?.annotations) ? body.metadata.annotations as Record<string, string> : undefined;
    await bindPod(ctx.store, { namespace: ctx.info.namespace, name: ctx.info.name, node: String(target.name) }, { annotations });
  }
  return respondPlain({ kind: "Status", apiVersion: "v1", metadata: {}, status: "Success", code: 201 }, 201, ctx.encode);
}
