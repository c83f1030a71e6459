/** kube's root-ca-cert-publisher: the `kube-root-ca.crt` ConfigMap (key ca.crt: the cluster CA) in every namespace. */
import { deepEqual } from "../api/equality.ts";
import type { KubeObject } from "../api/types.ts";
import { keepInEveryNamespace } from "./_per-namespace.ts";
import type { Controller } from "./runtime/mod.ts";

export const ROOT_CA_CONFIGMAP = "kube-root-ca.crt";
const DESCRIPTION =
  "Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. No other usage is guaranteed across distributions of Kubernetes clusters.";

export const rootCAPublisher: Controller = {
  name: "root-ca-cert-publisher",
  async start(ctx) {
    const store = ctx.store("", "v1", "configmaps");
    const data = { "ca.crt": ctx.settings.caPem };
    await keepInEveryNamespace(ctx, {
      resource: "configmaps",
      name: ROOT_CA_CONFIGMAP,
      ensure: async (namespace, current) => {
        if (!current) await store.create(namespace, desired(namespace, data));
        else if (!upToDate(current, data)) {
          await store.update(namespace, ROOT_CA_CONFIGMAP, (live) => ({ ...live!, ...desiredFields(live!, data) }));
        }
      },
    });
  },
};

function desired(namespace: string, data: Record<string, string>): KubeObject {
  return {
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: { name: ROOT_CA_CONFIGMAP, namespace, annotations: { "kubernetes.io/description": DESCRIPTION } },
    data,
  };
}

function upToDate(cm: KubeObject, data: Record<string, string>): boolean {
  return deepEqual(cm.data, data) && cm.metadata.annotations?.["kubernetes.io/description"] === DESCRIPTION;
}

function desiredFields(cm: KubeObject, data: Record<string, string>): KubeObject {
  return {
    ...cm,
    metadata: { ...cm.metadata, annotations: { ...cm.metadata.annotations, "kubernetes.io/description": DESCRIPTION } },
    data,
  };
}
