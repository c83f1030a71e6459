/**
 * Where a node's agent (kubelet) would be reached, as kube's NodeConnectionInfoGetter.GetConnectionInfo finds it:
 * the first address of the preferred types (kube-apiserver's default --kubelet-preferred-address-types order) on
 * the node's kubelet port (default 10250). kubun runs no kubelets and never dials a node: requests that kube
 * forwards to the kubelet fail here the way kube's do when the kubelet cannot be reached.
 */
import { newNotFound, newUnknownError, type StatusError } from "../../api/errors.ts";
import type { KubeObject } from "../../api/types.ts";
import type { ReadOnlyClient } from "../../api/client.ts";
import { SIMULATED_NODE_LABEL } from "../../controllers/mod.ts";
import { joinHostPort } from "../../aggregator/backend-request.ts";

const PREFERRED_ADDRESS_TYPES = ["Hostname", "InternalDNS", "InternalIP", "ExternalDNS", "ExternalIP"];
const DEFAULT_KUBELET_PORT = 10250;

export interface NodeConnectionInfo {
  node: KubeObject;
  host: string;
  port: string;
  /** Played by kubun's simulated kubelets (--simulated-nodes), which answer logs themselves. */
  simulated: boolean;
}

interface NodeStatus {
  addresses?: { type: string; address: string }[];
  daemonEndpoints?: { kubeletEndpoint?: { Port?: number } };
}

export async function nodeConnectionInfo(client: ReadOnlyClient, nodeName: string): Promise<NodeConnectionInfo> {
  const node = await client.get({ group: "", version: "v1", resource: "nodes", name: nodeName });
  if (!node) throw newNotFound({ group: "", resource: "nodes" }, nodeName);
  const status = (node.status ?? {}) as NodeStatus;
  const addresses = status.addresses ?? [];
  const preferred = PREFERRED_ADDRESS_TYPES.map((type) => addresses.find((a) => a.type === type)).find((a) => a !== undefined);
  // nodeutil.GetPreferredNodeAddress's error, which kube answers as a plain (500) error.
  if (!preferred) {
    throw newUnknownError(`no preferred addresses found; known addresses: [${addresses.map((a) => `{${a.type} ${a.address}}`).join(" ")}]`);
  }
  const port = status.daemonEndpoints?.kubeletEndpoint?.Port ?? 0;
  return {
    node,
    host: preferred.address,
    port: String(port > 0 ? port : DEFAULT_KUBELET_PORT),
    simulated: node.metadata.labels?.[SIMULATED_NODE_LABEL] === "true",
  };
}

/** Why the agent was not reached: kubun has none to dial, simulated or not. */
function unreachable(info: NodeConnectionInfo): string {
  return `no node agent answers at ${joinHostPort(info.host, info.port)} (kubun runs no kubelets)`;
}

/** exec, attach and port-forward: kube's UpgradeAwareHandler answers a failed dial with "error dialing backend". */
export function newDialBackendError(info: NodeConnectionInfo): StatusError {
  return newUnknownError(`error dialing backend: ${unreachable(info)}`);
}

/** A proxied request (nodes/proxy) whose round trip fails: kube's proxy Transport says "error trying to reach service". */
export function newReachServiceError(reason: string): StatusError {
  return newUnknownError(`error trying to reach service: ${reason}`);
}

export function newNodeAgentReachError(info: NodeConnectionInfo): StatusError {
  return newReachServiceError(unreachable(info));
}

/** A log request to a real node's kubelet: kube's LocationStreamer answers the failed GET with its URL. */
export function newLogFetchError(info: NodeConnectionInfo, path: string): StatusError {
  return newUnknownError(`Get "https://${joinHostPort(info.host, info.port)}${path}": ${unreachable(info)}`);
}
