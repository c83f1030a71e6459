/**
 * The Available condition of an APIService, decided as kube-aggregator 1.26's AvailableConditionController does:
 * local ones always; service-backed ones when the Service, its port and ready endpoints exist and the backend
 * answers its discovery document.
 */
import type { KubeObject } from "../api/types.ts";
import { type Endpoint, resolveEndpoint, type ServiceLookup } from "./endpoint-resolver.ts";
import { type APIServiceCondition, type APIServiceSpec, apiServiceSpec } from "./service-reference.ts";

/** GETs `url` from `endpoint`; rejects with a Go-like error text when there is no 2xx/3xx answer. */
export type DiscoveryProbe = (endpoint: Endpoint, path: string, apiService: APIServiceSpec) => Promise<void>;

export const LOCAL_AVAILABLE: Omit<APIServiceCondition, "lastTransitionTime"> = {
  type: "Available",
  status: "True",
  reason: "Local",
  message: "Local APIServices are always available",
};

interface EndpointSubset {
  addresses?: unknown[];
  ports?: { name?: string }[];
}

function unavailable(reason: string, message: string): APIServiceCondition {
  return { type: "Available", status: "False", reason, message };
}

export function discoveryPath(spec: APIServiceSpec): string {
  return spec.group === "" ? `/api/${spec.version}` : `/apis/${spec.group}/${spec.version}`;
}

export async function checkAvailability(
  apiService: KubeObject,
  lookup: ServiceLookup,
  probe: DiscoveryProbe,
): Promise<APIServiceCondition> {
  const spec = apiServiceSpec(apiService);
  const ref = spec.service;
  if (!ref) return { ...LOCAL_AVAILABLE };
  const where = `service/${ref.name} in "${ref.namespace}"`;
  const service = lookup.service(ref.namespace, ref.name);
  if (!service) return unavailable("ServiceNotFound", `${where} is not present`);
  if (((service.spec as { type?: string } | undefined)?.type ?? "ClusterIP") === "ClusterIP") {
    const port = ((service.spec as { ports?: { name?: string; port?: number }[] }).ports ?? []).find((p) => p.port === ref.port);
    if (!port) return unavailable("ServicePortError", `${where} is not listening on port ${ref.port}`);
    const endpoints = lookup.endpoints(ref.namespace, ref.name);
    if (!endpoints) return unavailable("EndpointsNotFound", `cannot find endpoints for ${where}`);
    const portName = port.name ?? "";
    const subsets = (endpoints as KubeObject & { subsets?: EndpointSubset[] }).subsets ?? [];
    const active = subsets.some((s) => (s.addresses ?? []).length > 0 && (s.ports ?? []).some((p) => (p.name ?? "") === portName));
    if (!active) return unavailable("MissingEndpoints", `endpoints for ${where} have no addresses with port name "${portName}"`);
  }
  try {
    const endpoint = resolveEndpoint(lookup, ref);
    const url = `https://${endpoint.host}:${endpoint.port}${discoveryPath(spec)}`;
    await probe(endpoint, discoveryPath(spec), spec).catch((error: Error) => {
      throw new Error(`failing or missing response from ${url}: ${error.message}`, { cause: error });
    });
  } catch (error) {
    return unavailable("FailedDiscoveryCheck", (error as Error).message);
  }
  return { type: "Available", status: "True", reason: "Passed", message: "all checks passed" };
}

/** Sets `next` among `conditions` (kube's SetAPIServiceCondition): lastTransitionTime moves only when the status does. */
export function withCondition(conditions: APIServiceCondition[], next: APIServiceCondition, now: string): APIServiceCondition[] {
  const existing = conditions.find((condition) => condition.type === next.type);
  if (!existing) return [...conditions, { ...next, lastTransitionTime: now }];
  const lastTransitionTime = existing.status === next.status ? existing.lastTransitionTime : now;
  return conditions.map((condition) => (condition === existing ? { ...next, lastTransitionTime } : condition));
}
