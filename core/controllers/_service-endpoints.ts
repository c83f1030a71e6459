/**
 * What the Endpoints and EndpointSlice controllers share (kube's endpointutil and podutil): which Services get
 * endpoints, which of their Pods count, each Pod's address and resolved ports, and the wiring that turns Service
 * and Pod changes into Service keys.
 */
import { matchesLabels, selectorFromSet } from "../api/label-selector.ts";
import { isIPv4 } from "node:net";
import type { KubeObject } from "../api/types.ts";
import type { ControllerContext } from "./runtime/mod.ts";
import { enqueueChanges } from "./runtime/mod.ts";
import { type Informer, keyOf } from "./runtime/mod.ts";
import type { WorkQueue } from "./runtime/mod.ts";

export const LAST_CHANGE_TRIGGER_TIME = "endpoints.kubernetes.io/last-change-trigger-time";
export const HEADLESS_LABEL = "service.kubernetes.io/headless";

export interface ServicePort {
  name?: string;
  port: number;
  protocol?: string;
  targetPort?: number | string;
  appProtocol?: string;
}

export interface ServiceSpec {
  type?: string;
  clusterIP?: string;
  selector?: Record<string, string>;
  ports?: ServicePort[];
  publishNotReadyAddresses?: boolean;
}

interface ContainerPort {
  name?: string;
  containerPort: number;
  protocol?: string;
}

interface PodFields {
  spec?: { nodeName?: string; hostname?: string; subdomain?: string; restartPolicy?: string; containers?: { ports?: ContainerPort[] }[] };
  status?: {
    phase?: string;
    podIP?: string;
    podIPs?: { ip: string }[];
    conditions?: { type: string; status: string; lastTransitionTime?: string }[];
  };
}

/** An endpoint port as both kinds write it (the slice writes `name` even when empty). */
export interface ResolvedPort {
  name: string;
  port: number;
  protocol: string;
  appProtocol?: string;
}

export function serviceSpec(service: KubeObject): ServiceSpec {
  return (service.spec ?? {}) as ServiceSpec;
}

/**
 * Services the controllers fill: not ExternalName, with a selector. An empty selector counts as none, since
 * kube-apiserver stores `selector: {}` as absent.
 */
export function selectsPods(service: KubeObject): boolean {
  const spec = serviceSpec(service);
  return spec.type !== "ExternalName" && Object.keys(spec.selector ?? {}).length > 0;
}

export function isHeadless(service: KubeObject): boolean {
  return serviceSpec(service).clusterIP === "None";
}

export function matchesSelector(selector: Record<string, string>, labels: Record<string, string> | undefined): boolean {
  return matchesLabels(selectorFromSet(selector), labels);
}

/** The Pod's IPv4 address (services here are single-stack IPv4), or undefined before it has one. */
export function podIPv4(pod: KubeObject): string | undefined {
  const status = (pod as PodFields).status;
  const candidates = [...(status?.podIPs ?? []).map((entry) => entry.ip), status?.podIP ?? ""];
  return candidates.find((ip) => isIPv4(ip));
}

/** kube's ShouldPodBeInEndpoints: not finished, has an IP, and not terminating unless those are wanted. */
export function shouldPodBeInEndpoints(pod: KubeObject, includeTerminating: boolean): boolean {
  const phase = (pod as PodFields).status?.phase;
  if (phase === "Succeeded" || phase === "Failed") return false;
  if (podIPv4(pod) === undefined) return false;
  return includeTerminating || !pod.metadata.deletionTimestamp;
}

/** Pods of the Service's namespace that its selector picks. */
export function selectedPods(service: KubeObject, pods: Informer): KubeObject[] {
  const selector = serviceSpec(service).selector ?? {};
  return pods.list(String(service.metadata.namespace)).filter((pod) => matchesSelector(selector, pod.metadata.labels));
}

/** kube's FindPort: a named targetPort is looked up among the containers' ports of the same protocol. */
export function findPort(pod: KubeObject, servicePort: ServicePort): number | undefined {
  const target = servicePort.targetPort ?? servicePort.port;
  if (typeof target === "number") return target;
  const protocol = servicePort.protocol ?? "TCP";
  for (const container of (pod as PodFields).spec?.containers ?? []) {
    const found = container.ports?.find((p) => p.name === target && (p.protocol ?? "TCP") === protocol);
    if (found) return found.containerPort;
  }
  return undefined;
}

/** The Service's ports as this Pod serves them; ports the Pod cannot resolve are left out. */
export function resolvePorts(service: KubeObject, pod: KubeObject): ResolvedPort[] {
  const resolved: ResolvedPort[] = [];
  for (const servicePort of serviceSpec(service).ports ?? []) {
    const port = findPort(pod, servicePort);
    if (port === undefined) continue;
    const entry: ResolvedPort = { name: servicePort.name ?? "", port, protocol: servicePort.protocol ?? "TCP" };
    if (servicePort.appProtocol) entry.appProtocol = servicePort.appProtocol;
    resolved.push(entry);
  }
  return resolved;
}

/** kube's ShouldSetHostname: the Pod names a hostname and this Service as its subdomain. */
function endpointHostname(pod: KubeObject, service: KubeObject): string | undefined {
  const spec = (pod as PodFields).spec;
  const sameService = spec?.subdomain === service.metadata.name && pod.metadata.namespace === service.metadata.namespace;
  return spec?.hostname && sameService ? spec.hostname : undefined;
}

function podNodeName(pod: KubeObject): string | undefined {
  return (pod as PodFields).spec?.nodeName || undefined;
}

export interface PodReference {
  kind: "Pod";
  namespace: string;
  name: string;
  uid: string;
}

/** What an Endpoints address and an EndpointSlice endpoint both take from their Pod: a reference, hostname and node. */
export function podEndpointFields(pod: KubeObject, service: KubeObject): { targetRef: PodReference; hostname?: string; nodeName?: string } {
  const fields: { targetRef: PodReference; hostname?: string; nodeName?: string } = {
    targetRef: { kind: "Pod", namespace: String(pod.metadata.namespace), name: String(pod.metadata.name), uid: String(pod.metadata.uid) },
  };
  const hostname = endpointHostname(pod, service);
  if (hostname) fields.hostname = hostname;
  const nodeName = podNodeName(pod);
  if (nodeName) fields.nodeName = nodeName;
  return fields;
}

/**
 * The newest change behind the endpoints: a Pod's readiness transition (or creation) or the Service's creation.
 * kube tracks the oldest change not yet written; both name a real Pod or Service change.
 */
export function lastChangeTriggerTime(service: KubeObject, pods: KubeObject[]): string | undefined {
  const times = [service.metadata.creationTimestamp, ...pods.map(podTriggerTime)].filter((t): t is string => typeof t === "string");
  return times.sort((a, b) => Date.parse(a) - Date.parse(b)).at(-1);
}

function podTriggerTime(pod: KubeObject): string | undefined {
  const ready = (pod as PodFields).status?.conditions?.find((c) => c.type === "Ready");
  return ready?.lastTransitionTime ?? pod.metadata.creationTimestamp;
}

/** The Service's labels for its endpoints objects, plus kube's headless marker. */
export function endpointsLabels(service: KubeObject): Record<string, string> {
  const labels: Record<string, string> = { ...service.metadata.labels };
  delete labels[HEADLESS_LABEL];
  if (isHeadless(service)) labels[HEADLESS_LABEL] = "";
  return labels;
}

export interface ServiceInformers {
  services: Informer;
  pods: Informer;
}

export async function serviceInformers(ctx: ControllerContext): Promise<ServiceInformers> {
  return { services: await ctx.informer("", "v1", "services"), pods: await ctx.informer("", "v1", "pods") };
}

/** Queues a Service's key when it changes and when a Pod it selects (before or after the change) changes. */
export function enqueueServiceChanges(ctx: ControllerContext, informers: ServiceInformers, queue: WorkQueue): void {
  const { services, pods } = informers;
  enqueueChanges(services, queue, keyOf, ctx.signal);
  const selectingServices = (pod: KubeObject) =>
    services
      .list(String(pod.metadata.namespace))
      .filter((service) => selectsPods(service) && matchesSelector(serviceSpec(service).selector!, pod.metadata.labels))
      .map(keyOf);
  enqueueChanges(pods, queue, selectingServices, ctx.signal);
}
