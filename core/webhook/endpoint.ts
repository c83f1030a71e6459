/**
 * Where a webhook is called (spec 2.9 clientConfig): its https URL, or its Service, resolved through the
 * Service's Endpoints (else its EndpointSlices) to one ready address and the matching port, since there is no
 * service proxy. TLS still verifies the service's DNS name `<name>.<namespace>.svc`.
 */
import { Buffer } from "node:buffer";
import type { KubeObject } from "../api/types.ts";
import type { ReadOnlyClient } from "../api/client.ts";

export interface ServiceReference {
  namespace: string;
  name: string;
  path?: string;
  port?: number;
}

/** A webhook's clientConfig (admission, conversion). */
export interface ClientConfig {
  url?: string;
  service?: ServiceReference;
  /** Base64 of a PEM bundle. */
  caBundle?: string;
}

export interface CallTarget {
  /** The URL as kube names it; for a service, `https://<name>.<namespace>.svc:<port><path>`. */
  url: URL;
  /** The address to connect to when it is not the URL's host (a service's endpoint). */
  connect?: { host: string; port: number };
  /** host[:port] that picks the client credentials (spec 5.12). */
  credentialsKey: string;
  /** PEM trust roots from caBundle; undefined means the system roots. */
  ca?: string;
}

type ServicePort = { name?: string; port?: number };
type Address = { ip?: string };

function caOf(clientConfig: ClientConfig): string | undefined {
  return clientConfig.caBundle ? Buffer.from(clientConfig.caBundle, "base64").toString("utf8") : undefined;
}

function urlTarget(raw: string, ca: string | undefined): CallTarget {
  const url = new URL(raw);
  if (url.protocol !== "https:") throw new Error(`webhook URL must use the https scheme, got ${raw}`);
  if (url.username || url.password || url.search || url.hash) throw new Error("webhook URL may not carry user info, a query or a fragment");
  // The authority as written (URL drops an explicit :443, which credential lookup must still see).
  const authority = /^https:\/\/([^/?#]*)/i.exec(raw)?.[1] ?? url.host;
  return { url, credentialsKey: authority, ca };
}

function readyAddressesOfEndpoints(endpoints: KubeObject, portName: string): { host: string; port: number }[] {
  const subsets = (endpoints.subsets ?? []) as { addresses?: Address[]; ports?: ServicePort[] }[];
  for (const subset of subsets) {
    const port = (subset.ports ?? []).find((p) => (p.name ?? "") === portName);
    const addresses = (subset.addresses ?? []).filter((a) => a.ip);
    if (port?.port && addresses.length > 0) return addresses.map((a) => ({ host: a.ip!, port: port.port! }));
  }
  return [];
}

function readyAddressesOfSlices(slices: KubeObject[], portName: string): { host: string; port: number }[] {
  for (const slice of slices) {
    const port = ((slice.ports ?? []) as ServicePort[]).find((p) => (p.name ?? "") === portName);
    const endpoints = (slice.endpoints ?? []) as { addresses?: string[]; conditions?: { ready?: boolean } }[];
    const hosts = endpoints.filter((e) => e.conditions?.ready !== false).flatMap((e) => e.addresses ?? []);
    if (port?.port && hosts.length > 0) return hosts.map((host) => ({ host, port: port.port! }));
  }
  return [];
}

async function serviceEndpoint(client: ReadOnlyClient, service: ServiceReference, port: number): Promise<{ host: string; port: number }> {
  const id = `${service.namespace}/${service.name}`;
  const found = await client.get({ group: "", version: "v1", resource: "services", namespace: service.namespace, name: service.name });
  if (!found) throw new Error(`service "${service.name}" not found`);
  const spec = (found.spec ?? {}) as { type?: string; ports?: ServicePort[]; externalName?: string };
  if (spec.type === "ExternalName") return { host: spec.externalName ?? "", port };
  const servicePort = (spec.ports ?? []).find((p) => p.port === port);
  if (!servicePort) throw new Error(`no service port ${port} found for service "${service.name}"`);
  const portName = servicePort.name ?? "";
  const endpoints = await client.get({ group: "", version: "v1", resource: "endpoints", namespace: service.namespace, name: service.name });
  let candidates = endpoints ? readyAddressesOfEndpoints(endpoints, portName) : [];
  if (candidates.length === 0) {
    const slices = await client.list({
      group: "discovery.k8s.io",
      version: "v1",
      resource: "endpointslices",
      namespace: service.namespace,
    });
    candidates = readyAddressesOfSlices(slices.filter((s) => s.metadata.labels?.["kubernetes.io/service-name"] === service.name), portName);
  }
  if (candidates.length === 0) throw new Error(`no endpoints available for service "${id}"`);
  return candidates[Math.floor(Math.random() * candidates.length)];
}

export async function resolveTarget(clientConfig: ClientConfig, client: ReadOnlyClient): Promise<CallTarget> {
  const ca = caOf(clientConfig);
  if (clientConfig.url) return urlTarget(clientConfig.url, ca);
  const service = clientConfig.service;
  if (!service) throw new Error("webhook clientConfig has neither url nor service");
  const port = service.port ?? 443;
  const path = service.path ?? "/";
  const host = `${service.name}.${service.namespace}.svc`;
  return {
    url: new URL(`https://${host}:${port}${path}`),
    connect: await serviceEndpoint(client, service, port),
    credentialsKey: `${host}:${port}`,
    ca,
  };
}
