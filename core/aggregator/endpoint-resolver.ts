/**
 * Where a Service's traffic goes, without kube-proxy: kube-aggregator's endpoint routing (ResolveEndpoint) picks a
 * random ready address of an Endpoints subset carrying the Service port's name, on that subset port.
 */
import { newServiceUnavailable, StatusError } from "../api/errors.ts";
import type { KubeObject } from "../api/types.ts";
import type { ServiceReference } from "./service-reference.ts";

export interface ServiceLookup {
  service(namespace: string, name: string): KubeObject | undefined;
  endpoints(namespace: string, name: string): KubeObject | undefined;
}

export interface Endpoint {
  host: string;
  port: number;
}

interface ServicePort {
  name?: string;
  port?: number;
}

interface EndpointSubset {
  addresses?: { ip: string }[];
  ports?: { name?: string; port: number }[];
}

const ROUTABLE_TYPES = new Set(["ClusterIP", "NodePort", "LoadBalancer"]);

function pick<T>(items: T[]): T {
  return items[Math.floor(Math.random() * items.length)]!;
}

/** The name of the Service port `ref.port` names; throws kube's 503 when there is none. */
export function servicePortName(service: KubeObject, ref: ServiceReference): string | undefined {
  const ports = (service.spec as { ports?: ServicePort[] } | undefined)?.ports ?? [];
  const found = ports.find((port) => port.port === ref.port);
  if (!found) throw newServiceUnavailable(`no service port ${ref.port} found for service "${ref.name}"`);
  return found.name ?? "";
}

export function resolveEndpoint(lookup: ServiceLookup, ref: ServiceReference): Endpoint {
  const service = lookup.service(ref.namespace, ref.name);
  if (!service) throw new StatusError(404, "NotFound", `service "${ref.name}" not found`);
  const type = (service.spec as { type?: string } | undefined)?.type ?? "ClusterIP";
  if (!ROUTABLE_TYPES.has(type)) throw newServiceUnavailable(`unsupported service type "${type}"`);
  const portName = servicePortName(service, ref);
  const endpoints = lookup.endpoints(ref.namespace, ref.name);
  if (!endpoints) throw new StatusError(404, "NotFound", `endpoints "${ref.name}" not found`);
  const subsets = (endpoints as KubeObject & { subsets?: EndpointSubset[] }).subsets ?? [];
  if (subsets.length === 0) throw newServiceUnavailable(`no endpoints available for service "${ref.name}"`);
  const candidates = subsets.flatMap((subset) => {
    const port = (subset.ports ?? []).find((p) => (p.name ?? "") === portName);
    return port && (subset.addresses ?? []).length > 0 ? [{ addresses: subset.addresses!, port: port.port }] : [];
  });
  if (candidates.length === 0) throw newServiceUnavailable(`no endpoints available for service "${ref.name}"`);
  const chosen = pick(candidates);
  return { host: pick(chosen.addresses).ip, port: chosen.port };
}
