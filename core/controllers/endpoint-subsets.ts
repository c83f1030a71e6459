/**
 * The subsets kube's endpoint controller writes for a Service: one address per selected Pod, ready ones in
 * `addresses` and the rest in `notReadyAddresses`, grouped by the set of ports the Pods resolve (RepackSubsets).
 */
import { isPodReady } from "./workloads/mod.ts";
import type { KubeObject } from "../api/types.ts";
import {
  isHeadless,
  podEndpointFields,
  podIPv4,
  type PodReference,
  type ResolvedPort,
  resolvePorts,
  serviceSpec,
  shouldPodBeInEndpoints,
} from "./_service-endpoints.ts";
import { compareByteOrder } from "../api/byte-order.ts";

export interface EndpointAddress {
  ip: string;
  hostname?: string;
  nodeName?: string;
  targetRef: PodReference;
}

export interface EndpointPort {
  name?: string;
  port: number;
  protocol: string;
  appProtocol?: string;
}

export interface EndpointSubset {
  addresses?: EndpointAddress[];
  notReadyAddresses?: EndpointAddress[];
  ports?: EndpointPort[];
}

interface Group {
  ports: EndpointPort[];
  ready: EndpointAddress[];
  notReady: EndpointAddress[];
}

export function endpointSubsets(service: KubeObject, pods: KubeObject[]): EndpointSubset[] {
  const spec = serviceSpec(service);
  const tolerateUnready = spec.publishNotReadyAddresses === true;
  const groups = new Map<string, Group>();
  for (const pod of pods) {
    if (!shouldPodBeInEndpoints(pod, tolerateUnready)) continue;
    const ports = podPorts(service, pod);
    if (ports === undefined) continue;
    const key = JSON.stringify(ports);
    const group = groups.get(key) ?? { ports, ready: [], notReady: [] };
    groups.set(key, group);
    (tolerateUnready || isPodReady(pod) ? group.ready : group.notReady).push(endpointAddress(service, pod));
  }
  return [...groups.entries()].sort(([a], [b]) => compareByteOrder(a, b)).map(([, group]) => toSubset(group));
}

/** The Pod's ports, sorted; undefined when it serves none of them (only headless Services take port-less addresses). */
function podPorts(service: KubeObject, pod: KubeObject): EndpointPort[] | undefined {
  if ((serviceSpec(service).ports ?? []).length === 0) return isHeadless(service) ? [] : undefined;
  const ports = resolvePorts(service, pod).map(endpointPort);
  return ports.length === 0 ? undefined : ports.sort(comparePorts);
}

function endpointPort(resolved: ResolvedPort): EndpointPort {
  const { name, ...rest } = resolved;
  return name ? { name, ...rest } : rest;
}

function endpointAddress(service: KubeObject, pod: KubeObject): EndpointAddress {
  return { ip: podIPv4(pod)!, ...podEndpointFields(pod, service) };
}

function toSubset(group: Group): EndpointSubset {
  const subset: EndpointSubset = {};
  if (group.ready.length > 0) subset.addresses = group.ready.sort(compareAddresses);
  if (group.notReady.length > 0) subset.notReadyAddresses = group.notReady.sort(compareAddresses);
  if (group.ports.length > 0) subset.ports = group.ports;
  return subset;
}

function comparePorts(a: EndpointPort, b: EndpointPort): number {
  return compareByteOrder(a.name ?? "", b.name ?? "") || a.port - b.port || compareByteOrder(a.protocol, b.protocol);
}

function compareAddresses(a: EndpointAddress, b: EndpointAddress): number {
  return compareIPv4(a.ip, b.ip) || compareByteOrder(a.targetRef.uid, b.targetRef.uid);
}

export function compareIPv4(a: string, b: string): number {
  const pa = a.split(".").map(Number);
  const pb = b.split(".").map(Number);
  for (let i = 0; i < 4; i++) if (pa[i] !== pb[i]) return (pa[i] ?? 0) - (pb[i] ?? 0);
  return 0;
}
