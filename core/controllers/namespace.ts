/**
 * kube's namespace controller (pkg/controller/namespace): a namespace being deleted is in phase Terminating with
 * the `kubernetes` finalizer; every pass deletes the namespaced objects of every listed type (custom resources
 * included), records kube's conditions, and once nothing is left removes the finalizer so the namespace goes.
 */
import { isNotFound } from "../api/errors.ts";
import type { KubeObject } from "../api/types.ts";
import { listObjects } from "../registry/list.ts";
import { nowTimestamp } from "../registry/object-meta.ts";
import type { ResourceStore } from "../registry/store.ts";
import type { Controller, ControllerContext } from "./runtime/mod.ts";
import { keyOf } from "./runtime/mod.ts";
import { type DeletionOutcome, type NamespaceCondition, namespaceConditions } from "./namespace-conditions.ts";

/** How soon a namespace whose content is still going is looked at again. */
const REQUEUE_MS = 1000;

export const namespaceController: Controller = {
  name: "namespace",
  async start(ctx) {
    const namespaces = await ctx.informer("", "v1", "namespaces");
    const store = ctx.store("", "v1", "namespaces");
    const queue = ctx.queue(async (name) => {
      const ns = namespaces.get("", name);
      if (!ns?.metadata.deletionTimestamp) return;
      if (!(await finalizeNamespace(ctx, store, ns))) queue.addAfter(name, REQUEUE_MS);
    });
    const remove = namespaces.onChange((event) => {
      if (event.type !== "DELETED" && event.object.metadata.deletionTimestamp) queue.add(keyOf(event.object));
    });
    // A deleted object may be the last one a terminating namespace waits for.
    const unsubscribe = ctx.registry.broker.follow("/", (event) => {
      if (event.type !== "DELETED") return;
      const namespace = event.kv.key.split("/")[3];
      if (namespace && namespaces.get("", namespace)?.metadata.deletionTimestamp) queue.add(namespace);
    });
    ctx.signal.addEventListener("abort", () => {
      remove();
      unsubscribe();
    }, { once: true });
  },
};

/** One pass; answers whether the namespace is finalized. */
async function finalizeNamespace(ctx: ControllerContext, namespaces: ResourceStore, ns: KubeObject): Promise<boolean> {
  const name = ns.metadata.name as string;
  const outcome = await deleteContent(ctx, name);
  await recordConditions(namespaces, ns, outcome);
  if (outcome.remaining.size > 0 || outcome.deleteErrors.length > 0) return false;
  await updateNamespace(namespaces, ns, (current) => {
    const spec = (current.spec ?? {}) as { finalizers?: string[] };
    return { ...current, spec: { ...spec, finalizers: (spec.finalizers ?? []).filter((f) => f !== "kubernetes") } };
  }, "finalize");
  return true;
}

/**
 * kube's retryOnConflictError: `change` is applied to the namespace as stored, again on a fresh read after a
 * conflict (the store's retry), but a namespace deleted and made again meanwhile is left alone (an error: the
 * queue runs the key again, on the new namespace). A namespace already gone is done.
 */
async function updateNamespace(
  namespaces: ResourceStore,
  ns: KubeObject,
  change: (current: KubeObject) => KubeObject,
  subresource: "status" | "finalize",
): Promise<void> {
  try {
    await namespaces.update("", String(ns.metadata.name), (current) => {
      if (current!.metadata.uid !== ns.metadata.uid) throw new Error("namespace uid has changed across retries");
      return change(current!);
    }, { subresource });
  } catch (e) {
    if (!isNotFound(e)) throw e;
  }
}

async function deleteContent(ctx: ControllerContext, namespace: string): Promise<DeletionOutcome> {
  const outcome: DeletionOutcome = { deleteErrors: [], remaining: new Map(), finalizers: new Map() };
  for (const type of ctx.catalog.all()) {
    if (!type.namespaced || !type.verbs.includes("delete") || !type.verbs.includes("list")) continue;
    const store = ctx.registry.store(type);
    const { list } = await listObjects(store, { namespace, revision: 0, limit: 0 });
    let left = 0;
    for (const item of list.items) {
      const kept = await deleteOne(store, namespace, item).catch((error: unknown) => {
        outcome.deleteErrors.push(error instanceof Error ? error.message : String(error));
        return item;
      });
      if (!kept) continue;
      left++;
      for (const finalizer of kept.metadata.finalizers ?? []) {
        outcome.finalizers.set(finalizer, (outcome.finalizers.get(finalizer) ?? 0) + 1);
      }
    }
    if (left > 0) outcome.remaining.set(`${type.resource}.${type.group}`, left);
  }
  return outcome;
}

/**
 * Deletes one object; answers it when it stays (finalizers, grace period), undefined when gone. As kube's
 * namespacedResourcesDeleter, in the background: no kind's default may add the orphan finalizer.
 */
async function deleteOne(store: ResourceStore, namespace: string, item: KubeObject): Promise<KubeObject | undefined> {
  try {
    const { object, deleted } = await store.delete(namespace, item.metadata.name as string, { propagationPolicy: "Background" });
    return deleted ? undefined : object;
  } catch (e) {
    if (isNotFound(e)) return undefined;
    throw e;
  }
}

async function recordConditions(namespaces: ResourceStore, ns: KubeObject, outcome: DeletionOutcome): Promise<void> {
  await updateNamespace(namespaces, ns, (current) => {
    const status = (current.status ?? {}) as { conditions?: NamespaceCondition[] };
    const conditions = namespaceConditions(status.conditions ?? [], outcome, nowTimestamp());
    return { ...current, status: { ...status, conditions } };
  }, "status");
}
