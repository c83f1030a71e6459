/**
 * kube-apiserver's own `kubernetes` Service in `default` (the first IP of the service range, port 443 to the
 * server's port) with its Endpoints and EndpointSlice naming the server's address (the master endpoint reconciler),
 * written as bootstrap writes. As kube's RunKubernetesService, a failed attempt does not stop the server: it is logged
 * and tried again every EndpointInterval until it succeeds (its IP, leaked by a process stopped mid-create on a store
 * other processes write too, is freed by the allocation repair passes meanwhile).
 */
import type { KubeObject } from "../api/types.ts";
import type { Catalog } from "../registry/catalog.ts";
import type { Registry } from "../registry/registry.ts";
import { createIfMissing } from "../registry/create-if-missing.ts";
import type { ResourceStore } from "../registry/store.ts";
import { isAlreadyExists } from "../api/errors.ts";
import { logger } from "../log/mod.ts";

const log = logger("kubernetes-service");

/** kube's EndpointInterval: how often RunKubernetesService runs UpdateKubernetesService. */
const RETRY_INTERVAL_MS = 10_000;

export interface ApiServerEndpoint {
  clusterIP: string;
  /** The address clients reach the server at (the bind address, loopback for a wildcard). */
  address: string;
  port: number;
}

export interface KubernetesServiceKeeper {
  /** Settles when the Service and its endpoints are written (never, if stopped first). */
  readonly written: Promise<void>;
  stop(): void;
}

/** Writes the Service and its endpoints; resolves after the first attempt, retrying in the background when it failed. */
export async function keepKubernetesService(
  registry: Registry,
  catalog: Catalog,
  endpoint: ApiServerEndpoint,
  retryIntervalMs = RETRY_INTERVAL_MS,
): Promise<KubernetesServiceKeeper> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  let markWritten = () => {};
  const written = new Promise<void>((resolve) => markWritten = resolve);
  const attempt = async () => {
    try {
      await ensureKubernetesService(registry, catalog, endpoint);
      markWritten();
    } catch (error) {
      log.error("unable to sync kubernetes service", error);
      if (!stopped) timer = setTimeout(attempt, retryIntervalMs);
    }
  };
  await attempt();
  return {
    written,
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}

async function ensureKubernetesService(registry: Registry, catalog: Catalog, endpoint: ApiServerEndpoint): Promise<void> {
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
  await createIfMissing(services, "default", service).catch(async (e) => {
    if (await services.get("default", "kubernetes").then(() => true, () => false)) return;
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
  await upsert(store("", "v1", "endpoints"), (live) => ({
    ...(live ?? { apiVersion: "v1", kind: "Endpoints", metadata: { name: "kubernetes", namespace: "default" } }),
    subsets: [{ addresses: [{ ip: endpoint.address }], ports: [port] }],
  }));
  await upsert(store("discovery.k8s.io", "v1", "endpointslices"), (live) => ({
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

/**
 * An update of default/kubernetes that creates it when missing. A process sharing the data directory may create
 * it in between: the create then fails with AlreadyExists, and the update runs again on the object now there.
 */
async function upsert(store: ResourceStore, build: (live: KubeObject | null) => KubeObject): Promise<void> {
  try {
    await store.update("default", "kubernetes", build);
  } catch (e) {
    if (!isAlreadyExists(e)) throw e;
    await store.update("default", "kubernetes", build);
  }
}
