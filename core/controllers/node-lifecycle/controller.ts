/**
 * kube-controller-manager's node lifecycle controller (`nodelifecycle`, pkg/controller/nodelifecycle): every
 * --node-monitor-period it marks nodes whose kubelet stopped reporting Unknown, keeps their condition taints, taints
 * unreachable and not-ready nodes NoExecute, marks their pods not ready and evicts the pods that do not tolerate
 * the taints (the NoExecuteTaintManager).
 */
import type { KubeObject } from "../../api/types.ts";
import { collectionPrefix } from "../../registry/keys.ts";
import { nowTimestamp } from "../../registry/object-meta.ts";
import type { Controller } from "../runtime/mod.ts";
import { NODE_LEASE_NAMESPACE } from "../simulated-nodes/node-object.ts";
import { type ControllerClient, controllerClient, LEASES, NODES, PODS } from "../workloads/mod.ts";
import { startLoop } from "../workloads/mod.ts";
import { type HealthSettings, type NodeHealth, observeHealth, readyStatusOf, staleConditions } from "./node-health.ts";
import { controllerTaints, type Taint, taintsOf } from "./node-taints.ts";
import { disruptionCondition, evictionDue } from "./taint-eviction.ts";
import { evictionTainting } from "./zone-state.ts";

interface PodCondition {
  type: string;
  status: string;
  lastTransitionTime?: string;
  [field: string]: unknown;
}

function podConditions(pod: KubeObject): PodCondition[] {
  return (pod.status as { conditions?: PodCondition[] } | undefined)?.conditions ?? [];
}

function withPodCondition(pod: KubeObject, condition: PodCondition): KubeObject {
  const others = podConditions(pod).filter((c) => c.type !== condition.type);
  const at = podConditions(pod).findIndex((c) => c.type === condition.type);
  const conditions = at < 0 ? [...others, condition] : [...others.slice(0, at), condition, ...others.slice(at)];
  return { ...pod, status: { ...(pod.status as object), conditions } };
}

/** kube's MarkPodsNotReady: the pod's Ready condition turns False (a pod without one is left alone). */
async function markNotReady(client: ControllerClient, pod: KubeObject, now: string): Promise<KubeObject> {
  const ready = podConditions(pod).find((c) => c.type === "Ready");
  if (!ready || ready.status === "False") return pod;
  return await client.updateStatus(PODS, withPodCondition(pod, { ...ready, status: "False", lastTransitionTime: now }));
}

async function evict(client: ControllerClient, pod: KubeObject, now: string): Promise<void> {
  const marked = podConditions(pod).some((c) => c.type === "DisruptionTarget" && c.status === "True")
    ? pod
    : await client.updateStatus(PODS, withPodCondition(pod, disruptionCondition(now) as PodCondition));
  await client.delete(PODS, marked, { preconditions: { uid: pod.metadata.uid } });
}

/** The node's spec with `taints`; an empty list leaves the field out, as Go's omitempty does. */
function withTaints(node: KubeObject, taints: Taint[]): Record<string, unknown> {
  const { taints: _old, ...spec } = (node.spec ?? {}) as Record<string, unknown>;
  return taints.length > 0 ? { ...spec, taints } : spec;
}

export function startNodeLifecycle(client: ControllerClient, settings: HealthSettings & { monitorPeriodMs: number }) {
  const health = new Map<string, NodeHealth>();
  const pass = async () => {
    const now = Date.now();
    const nowText = nowTimestamp();
    const leases = new Map((await client.list(LEASES, NODE_LEASE_NAMESPACE)).map((lease) => [
      String(lease.metadata.name),
      (lease.spec as { renewTime?: string } | undefined)?.renewTime,
    ]));
    const checked: KubeObject[] = [];
    for (const node of await client.list(NODES)) {
      const name = String(node.metadata.name);
      const seen = observeHealth(health.get(name), node, leases.get(name), now);
      health.set(name, seen);
      const conditions = staleConditions(node, seen, settings, now, nowText);
      checked.push(conditions ? await client.updateStatus(NODES, { ...node, status: { ...(node.status as object), conditions } }) : node);
    }
    for (const name of health.keys()) if (!checked.some((n) => n.metadata.name === name)) health.delete(name);
    const tainting = evictionTainting(checked);
    const nodes = new Map<string, KubeObject>();
    for (const node of checked) {
      const name = String(node.metadata.name);
      const taints = controllerTaints(node, { noExecute: tainting.get(name) ?? "hold", now: nowText });
      nodes.set(name, taints ? await client.update(NODES, { ...node, spec: withTaints(node, taints) }) : node);
    }
    for (const pod of await client.list(PODS)) {
      const node = nodes.get((pod.spec as { nodeName?: string } | undefined)?.nodeName ?? "");
      if (!node || pod.metadata.deletionTimestamp) continue;
      const current = readyStatusOf(node) === "True" ? pod : await markNotReady(client, pod, nowText);
      const due = evictionDue(current, taintsOf(node), now);
      if (due !== undefined && due <= now) await evict(client, current, nowText);
    }
  };
  const nodeStore = client.store(NODES);
  // A zero --node-monitor-period would spin; passes come at least every tenth of a second apart.
  const resyncMs = Math.max(settings.monitorPeriodMs, 100);
  return startLoop(nodeStore.changes, pass, { name: "nodelifecycle", prefixes: [collectionPrefix(nodeStore.type, "")], resyncMs });
}

export const nodeLifecycleController: Controller = {
  name: "nodelifecycle",
  start(ctx) {
    const { config } = ctx.settings;
    const loop = startNodeLifecycle(controllerClient(ctx.registry, ctx.catalog, { fieldManager: "kube-controller-manager" }), {
      gracePeriodMs: config.nodeMonitorGracePeriodMs,
      startupGracePeriodMs: config.nodeStartupGracePeriodMs,
      monitorPeriodMs: config.nodeMonitorPeriodMs,
    });
    ctx.signal.addEventListener("abort", () => loop.stop(), { once: true });
  },
};
