/**
 * The loop of controllers that keep one named object in every active namespace (kube's serviceaccount and
 * root-ca-cert-publisher): a namespace-keyed queue, fed by namespace changes and by changes to that object.
 */
import type { KubeObject } from "../api/types.ts";
import { tolerateBenignRace } from "./_races.ts";
import { type ControllerContext, enqueueChanges } from "./runtime/mod.ts";

export interface PerNamespaceObject {
  /** The core/v1 resource the object is of, e.g. "serviceaccounts". */
  resource: string;
  name: string;
  /** Creates or corrects the object in an active namespace; `current` is the cached one, if any. */
  ensure(namespace: string, current: KubeObject | undefined): Promise<void>;
}

export async function keepInEveryNamespace(ctx: ControllerContext, wanted: PerNamespaceObject): Promise<void> {
  const namespaces = await ctx.informer("", "v1", "namespaces");
  // Only the named objects: the root CA publisher need not cache every ConfigMap.
  const objects = await ctx.informer("", "v1", wanted.resource, { name: wanted.name });
  const queue = ctx.queue(async (namespace) => {
    const ns = namespaces.get("", namespace);
    if (!ns || ns.metadata.deletionTimestamp) return;
    await tolerateBenignRace(wanted.ensure(namespace, objects.get(namespace, wanted.name)));
  });
  enqueueChanges(namespaces, queue, (ns) => String(ns.metadata.name), ctx.signal);
  enqueueChanges(
    objects,
    queue,
    (object) => (object.metadata.name === wanted.name ? String(object.metadata.namespace) : undefined),
    ctx.signal,
  );
}
