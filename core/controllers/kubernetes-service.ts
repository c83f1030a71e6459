/**
 * kube-apiserver's own `kubernetes` Service in `default` (the first IP of the service range, port 443 to the
 * server's port) with its Endpoints and EndpointSlice naming the server's address (the master endpoint reconciler),
 * written as bootstrap writes.
 */
import type { KubeObject } from "../api/types.ts";
import type { Catalog } from "../registry/catalog.ts";
import type { Registry } from "../registry/registry.ts";
import { isAlreadyExists } from "../api/errors.ts";

export interface ApiServerEndpoint {
  clusterIP: string;
  /** The address clients reach the server at (the bind address, loopback for a wildcard). */
  address: string;
  port: number;
}

export async function ensureKubernetesService(registry: Registry, catalog: Catalog, endpoint: ApiServerEndpoint): Promise<void> {
  const store = (group: string, version: string, resource: string) =>
    registry.bootstrapWriter().store(catalog.byGroupVersionResource(group, version, resource)!);
  const service: KubeObject = {
    apiVersion: "v1",
    kind: "Service",
    metadata: { name: "kubernetes", namespace: "default", labels: { component: "apiserver", provider: "kubernetes" } },
    spec: {
      type: "ClusterIP",
      clusterIP: endpoint.clusterIP,
      sessionAffinity: "None",
      ports: [{ name: "https", port: 443, protocol: "TCP", targetPort: endpoint.port }],
    },
  };
  const services = store("", "v1", "services");
  // Another process sharing the data directory may create it first; its IP is then taken, so the create fails
  // with an allocation error rather than AlreadyExists: the Service being there is what counts.
  await services.create("default", service).catch(async (e) => {
    if (isAlreadyExists(e) || (await services.get("default", "kubernetes").then(() => true, () => false))) return;
    throw e;
  });
  // Only the target port can change between starts; the cluster IP stays as allocated.
  await services.update("default", "kubernetes", (live) => {
    const spec = live!.spec as { ports?: Record<string, unknown>[] };
    return {
      ...live!,
      spec: { ...spec, ports: [{ ...(spec.ports?.[0] ?? {}), name: "https", port: 443, protocol: "TCP", targetPort: endpoint.port }] },
    };
  });
  const port = { name: "https", port: endpoint.port, protocol: "TCP" };
  await store("", "v1", "endpoints").update("default", "kubernetes", (live) => ({
    ...(live ?? { apiVersion: "v1", kind: "Endpoints", metadata: { name: "kubernetes", namespace: "default" } }),
    subsets: [{ addresses: [{ ip: endpoint.address }], ports: [port] }],
  }));
  await store("discovery.k8s.io", "v1", "endpointslices").update("default", "kubernetes", (live) => ({
    ...(live ??
      {
        apiVersion: "discovery.k8s.io/v1",
        kind: "EndpointSlice",
        metadata: { name: "kubernetes", namespace: "default", labels: { "kubernetes.io/service-name": "kubernetes" } },
      }),
    addressType: "IPv4",
    endpoints: [{ addresses: [endpoint.address], conditions: { ready: true } }],
    ports: [port],
  }));
}
