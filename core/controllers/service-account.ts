/** kube's serviceaccount controller: a `default` ServiceAccount in every active namespace (spec 5.6.4). */
import { keepInEveryNamespace } from "./_per-namespace.ts";
import type { Controller } from "./runtime/mod.ts";

export const serviceAccountController: Controller = {
  name: "serviceaccount",
  async start(ctx) {
    const store = ctx.store("", "v1", "serviceaccounts");
    await keepInEveryNamespace(ctx, {
      resource: "serviceaccounts",
      name: "default",
      ensure: async (namespace, current) => {
        if (!current) await store.create(namespace, { apiVersion: "v1", kind: "ServiceAccount", metadata: { name: "default", namespace } });
      },
    });
  },
};
