/** kube's serviceaccount controller: a `default` ServiceAccount in every active namespace (spec 5.6.4). */
import { isBenignRace } from "./_races.ts";
import type { Controller } from "./runtime/controller.ts";
import { enqueueChanges } from "./runtime/controller.ts";

export const serviceAccountController: Controller = {
  name: "serviceaccount",
  async start(ctx) {
    const namespaces = await ctx.informer("", "v1", "namespaces");
    const accounts = await ctx.informer("", "v1", "serviceaccounts");
    const store = ctx.store("", "v1", "serviceaccounts");
    const queue = ctx.queue(async (namespace) => {
      const ns = namespaces.get("", namespace);
      if (!ns || ns.metadata.deletionTimestamp || accounts.get(namespace, "default")) return;
      try {
        await store.create(namespace, { apiVersion: "v1", kind: "ServiceAccount", metadata: { name: "default", namespace } });
      } catch (e) {
        if (!isBenignRace(e)) throw e;
      }
    });
    enqueueChanges(namespaces, queue, (ns) => String(ns.metadata.name), ctx.signal);
    enqueueChanges(accounts, queue, (sa) => (sa.metadata.name === "default" ? String(sa.metadata.namespace) : undefined), ctx.signal);
  },
};
