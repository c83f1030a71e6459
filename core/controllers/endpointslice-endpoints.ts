/**
 * The endpoints kube's endpointslice controller derives from a Service's Pods, grouped by the ports each Pod
 * resolves (one group becomes one or more slices). Terminating Pods stay, marked by their conditions.
 */
import { isPodReady } from "./workloads/mod.ts";
import type { KubeObject } from "../api/types.ts";
import {
  podEndpointFields,
  podIPv4,
  type PodReference,
  type ResolvedPort,
  resolvePorts,
  serviceSpec,
  shouldPodBeInEndpoints,
} from "./_service-endpoints.ts";

export const ZONE_LABEL = "topology.kubernetes.io/zone";

export interface SliceEndpoint {
  addresses: string[];
  conditions: { ready: boolean; serving: boolean; terminating: boolean };
  hostname?: string;
  targetRef: PodReference;
  nodeName?: string;
  zone?: string;
}

export interface EndpointGroup {
  /** In the Service's port order; empty for a headless Service without ports. */
  ports: ResolvedPort[];
  endpoints: SliceEndpoint[];
}

/** Finds the zone label of a Node by name (undefined when unknown). */
export type ZoneOf = (nodeName: string) => string | undefined;

/** Groups keyed by portsKey(). */
export function endpointGroups(service: KubeObject, pods: KubeObject[], zoneOf: ZoneOf): Map<string, EndpointGroup> {
  const groups = new Map<string, EndpointGroup>();
  const withoutPorts = (serviceSpec(service).ports ?? []).length === 0;
  for (const pod of pods) {
    if (!shouldPodBeInEndpoints(pod, true)) continue;
    const ports = resolvePorts(service, pod);
    if (ports.length === 0 && !withoutPorts) continue;
    const key = portsKey(ports);
    const group = groups.get(key) ?? { ports, endpoints: [] };
    groups.set(key, group);
    group.endpoints.push(sliceEndpoint(service, pod, zoneOf));
  }
  return groups;
}

/** Names a port set whatever the field order a stored slice came back with. */
export function portsKey(ports: Partial<ResolvedPort>[] | undefined): string {
  return JSON.stringify((ports ?? []).map((p) => [p.name ?? "", p.port, p.protocol ?? "TCP", p.appProtocol ?? ""]));
}

/** An endpoint's identity across updates: its Pod and address. */
export function endpointId(endpoint: SliceEndpoint): string {
  return `${endpoint.targetRef?.uid ?? ""}/${endpoint.addresses.join(",")}`;
}

function sliceEndpoint(service: KubeObject, pod: KubeObject, zoneOf: ZoneOf): SliceEndpoint {
  const serving = isPodReady(pod);
  const terminating = pod.metadata.deletionTimestamp !== undefined;
  // kube: never ready while terminating, unless the Service publishes not-ready addresses.
  const ready = serviceSpec(service).publishNotReadyAddresses === true || (serving && !terminating);
  const endpoint: SliceEndpoint = {
    addresses: [podIPv4(pod)!],
    conditions: { ready, serving, terminating },
    ...podEndpointFields(pod, service),
  };
  const zone = endpoint.nodeName ? zoneOf(endpoint.nodeName) : undefined;
  if (zone) endpoint.zone = zone;
  return endpoint;
}
