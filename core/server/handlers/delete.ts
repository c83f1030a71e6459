/** DELETE of one object: gone at once, or marked terminating while finalizers or a grace period remain (spec 3.1). */
import type { KubeObject } from "../../api/types.ts";
import type { ResourceStore } from "../../registry/store.ts";
import { respondObject, respondPlain } from "../respond.ts";
import type { HandlerContext } from "./context.ts";
import { readDeleteOptions } from "./delete-options.ts";

/** kube's answer to a finished delete for kinds that do not return the object: a Success Status naming it. */
export function deletedStatus(store: ResourceStore, obj: KubeObject) {
  return {
    kind: "Status",
    apiVersion: "v1",
    metadata: {},
    status: "Success",
    details: { name: obj.metadata.name, group: store.type.group || undefined, kind: store.type.resource, uid: obj.metadata.uid },
  };
}

export async function handleDelete(ctx: HandlerContext): Promise<Response> {
  const { cascadeAsked, ...options } = await readDeleteOptions(ctx);
  const { object, deleted } = await ctx.store.delete(ctx.info.namespace, ctx.info.name, options);
  if (deleted && !ctx.store.strategy.returnsDeletedObject) return respondPlain(deletedStatus(ctx.store, object), 200, ctx.encode);
  // kube answers 202 only for a pending deletion whose client asked orphanDependents=false (older clients rely on 200).
  return respondObject(object, !deleted && cascadeAsked ? 202 : 200, ctx.encode);
}
