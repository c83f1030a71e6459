/**
 * Node health as kube's node lifecycle controller judges it (pkg/controller/nodelifecycle, tryUpdateNodeHealth): a
 * node is alive while its Ready condition's heartbeat or its Lease's renewTime keeps moving; after the grace period
 * without either, its kubelet-owned conditions become Unknown.
 */
import { deepEqual } from "../../api/equality.ts";
import type { KubeObject } from "../../api/types.ts";

export interface NodeCondition {
  type: string;
  status: string;
  lastHeartbeatTime?: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

/** What the controller remembers of a node between passes (kube's nodeHealthData). */
export interface NodeHealth {
  /** When the node was last seen alive, ms since the epoch. */
  probeTimestamp: number;
  readyHeartbeat?: string;
  leaseRenewTime?: string;
}

export interface HealthSettings {
  /** --node-monitor-grace-period. */
  gracePeriodMs: number;
  /** --node-startup-grace-period: the grace of a node whose kubelet never posted a Ready condition. */
  startupGracePeriodMs: number;
}

/** The conditions kube turns Unknown; NetworkUnavailable is the network plugin's, not the kubelet's. */
const KUBELET_CONDITIONS = ["Ready", "MemoryPressure", "DiskPressure", "PIDPressure"];

export function conditionsOf(node: KubeObject): NodeCondition[] {
  return (node.status as { conditions?: NodeCondition[] } | undefined)?.conditions ?? [];
}

export function readyStatusOf(node: KubeObject): string | undefined {
  return conditionsOf(node).find((c) => c.type === "Ready")?.status;
}

/** The remembered health after seeing `node` and its Lease now. */
export function observeHealth(
  previous: NodeHealth | undefined,
  node: KubeObject,
  leaseRenewTime: string | undefined,
  now: number,
): NodeHealth {
  const ready = conditionsOf(node).find((c) => c.type === "Ready");
  let health: NodeHealth;
  if (!ready) {
    // Never posted: kube counts from the node's creation the first time it sees it.
    const created = Date.parse(String(node.metadata.creationTimestamp ?? ""));
    health = { probeTimestamp: previous ? previous.probeTimestamp : Number.isFinite(created) ? created : now };
  } else if (!previous || previous.readyHeartbeat !== ready.lastHeartbeatTime) {
    health = { probeTimestamp: now, readyHeartbeat: ready.lastHeartbeatTime, leaseRenewTime: previous?.leaseRenewTime };
  } else {
    health = { ...previous };
  }
  if (
    leaseRenewTime !== undefined && (health.leaseRenewTime === undefined || Date.parse(leaseRenewTime) > Date.parse(health.leaseRenewTime))
  ) {
    health.leaseRenewTime = leaseRenewTime;
    health.probeTimestamp = now;
  }
  return health;
}

/**
 * The node's conditions once the grace period ran out: missing ones are added as never updated, known ones turn
 * Unknown (kube keeps their heartbeat). Answers undefined while the node is within its grace period or nothing changes.
 */
export function staleConditions(
  node: KubeObject,
  health: NodeHealth,
  settings: HealthSettings,
  now: number,
  nowText: string,
): NodeCondition[] | undefined {
  const conditions = conditionsOf(node);
  const grace = conditions.some((c) => c.type === "Ready") ? settings.gracePeriodMs : settings.startupGracePeriodMs;
  if (now <= health.probeTimestamp + grace) return undefined;
  const next = conditions.map((c) => ({ ...c }));
  for (const type of KUBELET_CONDITIONS) {
    const current = next.find((c) => c.type === type);
    if (!current) {
      next.push({
        type,
        status: "Unknown",
        lastHeartbeatTime: String(node.metadata.creationTimestamp),
        lastTransitionTime: nowText,
        reason: "NodeStatusNeverUpdated",
        message: "Kubelet never posted node status.",
      });
    } else if (current.status !== "Unknown") {
      Object.assign(current, {
        status: "Unknown",
        reason: "NodeStatusUnknown",
        message: "Kubelet stopped posting node status.",
        lastTransitionTime: nowText,
      });
    }
  }
  return deepEqual(next, conditions) ? undefined : next;
}
