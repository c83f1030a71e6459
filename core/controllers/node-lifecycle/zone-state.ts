/**
 * kube's zone disruption states (ComputeZoneState, handleDisruption): taint-based eviction stops in a zone where many
 * nodes are not ready at once, and everywhere when every node of every zone is, since then the control plane's view
 * is more likely wrong than all the nodes.
 */
import type { KubeObject } from "../../api/types.ts";
import { readyStatusOf } from "./node-health.ts";

/** kube-controller-manager's --unhealthy-zone-threshold and --large-cluster-size-threshold defaults. */
const UNHEALTHY_ZONE_THRESHOLD = 0.55;
const LARGE_CLUSTER_SIZE_THRESHOLD = 50;

type ZoneState = "Normal" | "PartialDisruption" | "FullDisruption";

/** kube's GetZoneKey: region and zone labels (the beta ones as fallback). */
export function zoneOf(node: KubeObject): string {
  const labels = node.metadata.labels ?? {};
  const region = labels["topology.kubernetes.io/region"] ?? labels["failure-domain.beta.kubernetes.io/region"] ?? "";
  const zone = labels["topology.kubernetes.io/zone"] ?? labels["failure-domain.beta.kubernetes.io/zone"] ?? "";
  return region === "" && zone === "" ? "" : `${region}:\x00:${zone}`;
}

function zoneState(nodes: KubeObject[]): ZoneState {
  const ready = nodes.filter((n) => readyStatusOf(n) === "True").length;
  const notReady = nodes.length - ready;
  if (ready === 0 && notReady > 0) return "FullDisruption";
  if (notReady > 2 && notReady / nodes.length >= UNHEALTHY_ZONE_THRESHOLD) return "PartialDisruption";
  return "Normal";
}

/** Per node name: may eviction taints be added ("taint"), must existing ones stay as they are ("hold"), or go ("clear")? */
export function evictionTainting(nodes: KubeObject[]): Map<string, "taint" | "hold" | "clear"> {
  const zones = new Map<string, KubeObject[]>();
  for (const node of nodes) zones.set(zoneOf(node), [...(zones.get(zoneOf(node)) ?? []), node]);
  const states = new Map([...zones].map(([zone, members]) => [zone, zoneState(members)]));
  const allFullyDisrupted = states.size > 0 && [...states.values()].every((s) => s === "FullDisruption");
  const result = new Map<string, "taint" | "hold" | "clear">();
  for (const [zone, members] of zones) {
    // A partially disrupted zone evicts at the secondary rate in large clusters and not at all in small ones.
    const held = states.get(zone) === "PartialDisruption" && members.length <= LARGE_CLUSTER_SIZE_THRESHOLD;
    for (const node of members) result.set(String(node.metadata.name), allFullyDisrupted ? "clear" : held ? "hold" : "taint");
  }
  return result;
}
