/**
 * The `cluster-info` ConfigMap in kube-public that the bootstrap signer signs: key `kubeconfig` holds a kubeconfig
 * with only the cluster (server URL and CA). kubeadm writes it in kube, with a Role and RoleBinding letting
 * anonymous clients read it; kubun has no kubeadm, so the server creates all three at start when the signer is
 * enabled (the signer's own role may only update cluster-info, as in kube).
 */
import { Buffer } from "node:buffer";
import { stringify } from "yaml";
import type { KubeObject } from "../../api/types.ts";
import type { Catalog } from "../../registry/catalog.ts";
import type { Registry } from "../../registry/registry.ts";
import { createIfMissing } from "../../registry/create-if-missing.ts";
import type { ResourceStore } from "../../registry/store.ts";
import { tolerateBenignRace } from "../_races.ts";

export const CLUSTER_INFO_NAMESPACE = "kube-public";
export const CLUSTER_INFO_NAME = "cluster-info";
export const KUBECONFIG_KEY = "kubeconfig";
export const SIGNATURE_KEY_PREFIX = "jws-kubeconfig-";
/** kubeadm's names for the anonymous read access to cluster-info. */
const READER_NAME = "kubeadm:bootstrap-signer-clusterinfo";
const RBAC_API_VERSION = "rbac.authorization.k8s.io/v1";

/** Laid out as kubeadm's clientcmd.Write prints it (keys sorted, an unnamed cluster, no users or contexts). */
export function clusterInfoKubeconfig(serverUrl: string, caPem: string): string {
  return stringify({
    apiVersion: "v1",
    clusters: [{ cluster: { "certificate-authority-data": Buffer.from(caPem).toString("base64"), server: serverUrl }, name: "" }],
    contexts: null,
    "current-context": "",
    kind: "Config",
    preferences: {},
    users: null,
  });
}

/** kubeadm's part, done by the server at start: cluster-info and the anonymous read access to it. */
export async function ensureClusterInfo(
  registry: Registry,
  catalog: Catalog,
  cluster: { serverUrl: string; caPem: string },
): Promise<void> {
  const store = (group: string, resource: string) => registry.store(catalog.byGroupVersionResource(group, "v1", resource)!);
  const stores = {
    configMaps: store("", "configmaps"),
    roles: store("rbac.authorization.k8s.io", "roles"),
    roleBindings: store("rbac.authorization.k8s.io", "rolebindings"),
  };
  await createClusterInfo(stores, clusterInfoKubeconfig(cluster.serverUrl, cluster.caPem));
}

interface ClusterInfoStores {
  configMaps: ResourceStore;
  roles: ResourceStore;
  roleBindings: ResourceStore;
}

async function createClusterInfo(stores: ClusterInfoStores, kubeconfig: string): Promise<void> {
  const readerMeta = { name: READER_NAME, namespace: CLUSTER_INFO_NAMESPACE };
  await ensureInKubePublic(stores.roles, {
    apiVersion: RBAC_API_VERSION,
    kind: "Role",
    metadata: readerMeta,
    rules: [{ apiGroups: [""], resources: ["configmaps"], resourceNames: [CLUSTER_INFO_NAME], verbs: ["get"] }],
  });
  await ensureInKubePublic(stores.roleBindings, {
    apiVersion: RBAC_API_VERSION,
    kind: "RoleBinding",
    metadata: readerMeta,
    roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "Role", name: READER_NAME },
    subjects: [{ apiGroup: "rbac.authorization.k8s.io", kind: "User", name: "system:anonymous" }],
  });
  // Last, so anonymous readers find it readable as soon as it exists.
  const metadata = { name: CLUSTER_INFO_NAME, namespace: CLUSTER_INFO_NAMESPACE };
  await ensureInKubePublic(stores.configMaps, { apiVersion: "v1", kind: "ConfigMap", metadata, data: { [KUBECONFIG_KEY]: kubeconfig } });
}

/** Read first, created only when missing (every restart would otherwise run each create's whole write path). */
async function ensureInKubePublic(store: ResourceStore, object: KubeObject): Promise<void> {
  await tolerateBenignRace(createIfMissing(store, CLUSTER_INFO_NAMESPACE, object));
}
