/**
 * POST pods/<name>/binding (kube's BindingREST.Create): assigns the pod to the Binding's target node and
 * answers 201 with a Success Status; a pod already bound or being deleted answers 409. POST bindings (kube's
 * LegacyBindingREST.Create) does the same for the pod the Binding's metadata.name names.
 */
import { type FieldError, newBadRequest, newInvalid, newMethodNotSupported } from "../../api/errors.ts";
import { isPlainObject } from "../../api/types.ts";
import { bindPod } from "../../controllers/mod.ts";
import type { ResourceStore } from "../../registry/store.ts";
import { checkKeyName, newResourceNotFound } from "../resource-route.ts";
import { respondPlain } from "../respond.ts";
import { virtualHandlerKey } from "../virtual-handlers.ts";
import type { Handler, HandlerContext } from "./context.ts";
import { parseWriteQuery, readObjectBody } from "./write-options.ts";

const BINDING = { group: "", kind: "Binding" };

/** `pods` is the Pod store the collection's bindings write through. */
export function podBindingHandlers(pods: ResourceStore): [string, Handler][] {
  return [
    [virtualHandlerKey("", "pods", "binding"), (ctx) => handlePodBinding(ctx, ctx.store, "pods/binding")],
    [virtualHandlerKey("", "bindings"), (ctx) => handlePodBinding(ctx, pods, "bindings")],
  ];
}

async function handlePodBinding(ctx: HandlerContext, pods: ResourceStore, resource: string): Promise<Response> {
  if (ctx.info.namespace === "") throw newResourceNotFound();
  if (ctx.info.verb !== "create") throw newMethodNotSupported({ group: "", resource }, ctx.info.verb);
  const query = parseWriteQuery(ctx.url.searchParams, "CreateOptions");
  const body = await readObjectBody({ ...ctx, type: { ...ctx.type, kind: "Binding" } }, query.fieldValidation);
  const bodyName = body.metadata?.name;
  // The collection's route has no name: the Binding's own is the pod's (LegacyBindingREST.Create).
  const podName = resource === "bindings" ? String(bodyName ?? "") : ctx.info.name;
  if (bodyName !== undefined && bodyName !== podName) throw newBadRequest("name in URL does not match name in Binding object");
  const target = isPlainObject(body.target) ? body.target : {};
  const errors: FieldError[] = [];
  if (target.kind !== undefined && target.kind !== "" && target.kind !== "Node") {
    errors.push({ type: "FieldValueInvalid", field: "target.kind", value: target.kind, detail: "must be empty or 'Node'" });
  }
  if (!target.name) errors.push({ type: "FieldValueRequired", field: "target.name", detail: "" });
  if (errors.length > 0) throw newInvalid(BINDING, podName, errors);
  // After ValidatePodBinding, BindingREST.setPodHostAndAnnotations keys the pod with the store's NamespaceKeyFunc.
  if (resource === "bindings") checkKeyName(podName);
  if (!query.dryRun) {
    const annotations = isPlainObject(body.metadata?.annotations) ? body.metadata.annotations as Record<string, string> : undefined;
    await bindPod(pods, { namespace: ctx.info.namespace, name: podName, node: String(target.name) }, { annotations });
  }
  return respondPlain({ kind: "Status", apiVersion: "v1", metadata: {}, status: "Success", code: 201 }, 201, ctx.encode);
}
