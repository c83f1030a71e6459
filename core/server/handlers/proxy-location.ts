/**
 * Where pods/proxy, services/proxy and nodes/proxy send a request: kube's ResourceLocation functions for pods
 * (pkg/registry/core/pod/strategy.go), services (pkg/registry/core/service/storage ResourceLocation with
 * isValidAddress) and nodes (pkg/registry/core/node/strategy.go), with their 400/404/503 answers.
 */
import { isIP } from "node:net";
import { newBadRequest, newNotFound, newServiceUnavailable } from "../../api/errors.ts";
import type { KubeObject } from "../../api/types.ts";
import type { ReadOnlyClient } from "../../api/client.ts";
import type { Endpoint } from "../../aggregator/endpoint-resolver.ts";
import { type NodeConnectionInfo, nodeConnectionInfo } from "./node-agent.ts";
import { splitSchemeNamePort } from "./scheme-name-port.ts";

export interface ProxyLocation {
  scheme: "http" | "https";
  endpoint: Endpoint;
}

const core = (resource: string, namespace: string, name: string) => ({ group: "", version: "v1", resource, namespace, name });

async function mustGet(client: ReadOnlyClient, resource: string, namespace: string, name: string): Promise<KubeObject> {
  const found = await client.get(core(resource, namespace, name));
  if (!found) throw newNotFound({ group: "", resource }, name);
  return found;
}

function podIPsOf(pod: KubeObject): string[] {
  return ((pod.status as { podIPs?: { ip: string }[] } | undefined)?.podIPs ?? []).map((p) => p.ip);
}

/** net.IP.IsGlobalUnicast: not unspecified, loopback, multicast, link-local or broadcast. */
export function isGlobalUnicast(ip: string): boolean {
  const family = isIP(ip);
  if (family === 4) {
    const [a, b] = ip.split(".").map(Number) as [number, number];
    return !(a === 0 || a === 127 || a >= 224 || (a === 169 && b === 254) || ip === "255.255.255.255");
  }
  if (family === 6) {
    const lower = ip.toLowerCase();
    return !(lower === "::" || lower === "::1" || lower.startsWith("ff") || /^fe[89ab]/.test(lower));
  }
  return false;
}

function portNumber(port: string): number {
  return Number.parseInt(port, 10);
}

/** pod.ResourceLocation: "[scheme:]pod[:port]"; the port defaults to the first declared container port. */
export async function podLocation(client: ReadOnlyClient, namespace: string, id: string): Promise<ProxyLocation> {
  const parsed = splitSchemeNamePort(id);
  if (!parsed) throw newBadRequest(`invalid pod request "${id}"`);
  const pod = await mustGet(client, "pods", namespace, parsed.name);
  const containers = (pod.spec as { containers?: { ports?: { containerPort: number }[] }[] } | undefined)?.containers ?? [];
  const port = parsed.port || String(containers.find((c) => (c.ports ?? []).length > 0)?.ports?.[0]?.containerPort ?? "");
  const podIP = podIPsOf(pod)[0] ?? "";
  if (!isGlobalUnicast(podIP)) throw newBadRequest("address not allowed");
  const scheme = parsed.scheme || "http";
  // Without a port the URL has none: the scheme's own.
  return { scheme, endpoint: { host: podIP, port: port === "" ? (scheme === "https" ? 443 : 80) : portNumber(port) } };
}

interface Subset {
  addresses?: { ip: string; targetRef?: { kind?: string; namespace?: string; name?: string } }[];
  ports?: { name?: string; port: number }[];
}

/** isValidAddress: the address must name a pod of this namespace that holds that IP. */
async function isValidAddress(
  client: ReadOnlyClient,
  namespace: string,
  address: NonNullable<Subset["addresses"]>[number],
): Promise<boolean> {
  const ref = address.targetRef;
  if (!ref?.name || ref.namespace !== namespace) return false;
  const pod = await client.get(core("pods", namespace, ref.name));
  return pod !== null && podIPsOf(pod).includes(address.ip);
}

function shuffled<T>(items: T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** The service's ResourceLocation: "[scheme:]service[:port]", the port a number or a port name. */
export async function serviceLocation(client: ReadOnlyClient, namespace: string, id: string): Promise<ProxyLocation> {
  const parsed = splitSchemeNamePort(id);
  if (!parsed) throw newBadRequest(`invalid service request "${id}"`);
  let portName = parsed.port;
  if (/^[+-]?\d+$/.test(parsed.port)) {
    const service = await mustGet(client, "services", namespace, parsed.name);
    const ports = (service.spec as { ports?: { name?: string; port: number }[] } | undefined)?.ports ?? [];
    const found = ports.find((p) => p.port === portNumber(parsed.port));
    if (!found) throw newServiceUnavailable(`no service port ${portNumber(parsed.port)} found for service "${parsed.name}"`);
    portName = found.name ?? "";
  }
  const endpoints = await mustGet(client, "endpoints", namespace, parsed.name);
  const subsets = (endpoints as KubeObject & { subsets?: Subset[] }).subsets ?? [];
  if (subsets.length === 0) throw newServiceUnavailable(`no endpoints available for service "${parsed.name}"`);
  // kube starts at a random subset and tries a random address order within it.
  for (const subset of shuffled(subsets)) {
    const port = (subset.ports ?? []).find((p) => (p.name ?? "") === portName);
    if (!port) continue;
    for (const address of shuffled(subset.addresses ?? [])) {
      if (await isValidAddress(client, namespace, address)) {
        return { scheme: parsed.scheme || "http", endpoint: { host: address.ip, port: port.port } };
      }
    }
  }
  throw newServiceUnavailable(`no endpoints available for service "${id}"`);
}

/**
 * The node's ResourceLocation: "[scheme:]node[:port]", the kubelet when no other port is asked for. Its
 * isProxyableHostname check refuses loopback and link-local node addresses; host names are not resolved here.
 */
export async function nodeLocation(client: ReadOnlyClient, id: string): Promise<NodeConnectionInfo> {
  const parsed = splitSchemeNamePort(id);
  if (!parsed) throw newBadRequest(`invalid node request "${id}"`);
  const info = await nodeConnectionInfo(client, parsed.name);
  if (isIP(info.host) !== 0 && !isGlobalUnicast(info.host)) throw newBadRequest("address not allowed");
  return parsed.port === "" || parsed.port === info.port ? info : { ...info, port: parsed.port };
}
