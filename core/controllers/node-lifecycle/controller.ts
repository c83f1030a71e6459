/**
 * kube-controller-manager's node lifecycle controller (`nodelifecycle`, pkg/controller/nodelifecycle): every
 * --node-monitor-period it marks nodes whose kubelet stopped reporting Unknown, keeps their condition taints, taints
 * unreachable and not-ready nodes NoExecute, marks their pods not ready and evicts the pods that do not tolerate
 * the taints (the NoExecuteTaintManager).
 * It records kube's Events (component node-controller): RegisteredNode / RemovingNode when it first sees a node or
 * sees it gone (monitorNodeHealth, nodeutil.RecordNodeEvent), NodeNotReady on a node whose Ready condition it turns
 * from True (RecordNodeStatusChange) and, Warning, on each pod it marks not ready (MarkPodsNotReady); the taint
 * manager records TaintManagerEviction "Marking for deletion Pod <ns>/<pod>" (component taint-controller).
 */
import { isNotFound, newNotFound } from "../../api/errors.ts";
import { type Backoff, retryOnConflict, retryOnError } from "../../api/retry.ts";
import type { KubeObject } from "../../api/types.ts";
import { logger } from "../../log/mod.ts";
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

const log = logger("nodelifecycle");

/** kube's monitorNodeHealth retry: NodeHealthUpdateRetry (5) tries, retrySleepTime (20 ms) apart. */
const NODE_HEALTH_RETRY: Backoff = { steps: 5, durationMs: 20, factor: 1, jitter: 0 };
/** kube's UpdateTaintBackoff (controller_utils.go): no factor, so every wait is 100 ms plus up to as much again. */
const UPDATE_TAINT_BACKOFF: Backoff = { steps: 5, durationMs: 100, factor: 0, jitter: 1 };

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

const NODE_CONTROLLER = "node-controller";
const TAINT_CONTROLLER = "taint-controller";

/** nodeutil.RecordNodeEvent: about the node by name and uid, worded "Node <node> event: <what>". */
function recordNodeEvent(client: ControllerClient, node: { name: string; uid?: string }, reason: string, what: string): void {
  const ref = { apiVersion: "v1", kind: "Node", metadata: { name: node.name, uid: node.uid } };
  client.recordEvent(ref, { type: "Normal", reason, message: `Node ${node.name} event: ${what}`, component: NODE_CONTROLLER });
}

/** nodeutil.RecordNodeStatusChange: its reference carries the node's name as uid. */
function recordNodeStatusChange(client: ControllerClient, name: string, status: string): void {
  const ref = { apiVersion: "v1", kind: "Node", metadata: { name, uid: name } };
  client.recordEvent(ref, { type: "Normal", reason: status, message: `Node ${name} status is now: ${status}`, component: NODE_CONTROLLER });
}

/** kube's MarkPodsNotReady: the pod's Ready condition turns False (a pod without one is left alone), then its Event. */
async function markNotReady(client: ControllerClient, pod: KubeObject, now: string): Promise<KubeObject> {
  const ready = podConditions(pod).find((c) => c.type === "Ready");
  if (!ready || ready.status === "False") return pod;
  const updated = await client.updateStatus(PODS, withPodCondition(pod, { ...ready, status: "False", lastTransitionTime: now }));
  client.recordEvent(pod, { type: "Warning", reason: "NodeNotReady", message: "Node is not ready", component: NODE_CONTROLLER });
  return updated;
}

async function evict(client: ControllerClient, pod: KubeObject, now: string): Promise<void> {
  // emitPodDeletionEvent's reference names the pod by namespace and name only.
  const ref = { kind: "Pod", metadata: { name: pod.metadata.name, namespace: pod.metadata.namespace } };
  const message = `Marking for deletion Pod ${pod.metadata.namespace}/${pod.metadata.name}`;
  client.recordEvent(ref, { type: "Normal", reason: "TaintManagerEviction", message, component: TAINT_CONTROLLER });
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

/** The node as stored now; a deleted one is NotFound. */
async function nodeNamed(client: ControllerClient, name: string): Promise<KubeObject> {
  const node = await client.get(NODES, "", name);
  if (!node) throw newNotFound({ group: "", resource: "nodes" }, name);
  return node;
}

/**
 * kube's SwapNodeControllerTaint: the node's controller taints are put right under RetryOnConflict with
 * UpdateTaintBackoff, the node read again after a conflict.
 */
async function withControllerTaints(
  client: ControllerClient,
  node: KubeObject,
  tainting: ReturnType<typeof evictionTainting>,
  now: string,
): Promise<KubeObject> {
  const name = String(node.metadata.name);
  let attempt = 0;
  return await retryOnConflict(UPDATE_TAINT_BACKOFF, async () => {
    const current = attempt++ === 0 ? node : await nodeNamed(client, name);
    const taints = controllerTaints(current, { noExecute: tainting.get(name) ?? "hold", now });
    return taints ? await client.update(NODES, { ...current, spec: withTaints(current, taints) }) : current;
  });
}

export function startNodeLifecycle(client: ControllerClient, settings: HealthSettings & { monitorPeriodMs: number }) {
  const health = new Map<string, NodeHealth>();
  // kube's knownNodeSet: the nodes this controller has registered, by name, with their uids.
  const known = new Map<string, string | undefined>();
  const pass = async () => {
    const now = Date.now();
    const nowText = nowTimestamp();
    const leases = new Map((await client.list(LEASES, NODE_LEASE_NAMESPACE)).map((lease) => [
      String(lease.metadata.name),
      (lease.spec as { renewTime?: string } | undefined)?.renewTime,
    ]));
    const listed = await client.list(NODES);
    const checked: KubeObject[] = [];
    for (const node of listed) {
      const name = String(node.metadata.name);
      // kube's monitorNodeHealth: tryUpdateNodeHealth again on a fresh read of the node; a node whose health
      // cannot be written is skipped this pass ("no pods will be evicted").
      let attempt = 0;
      if (!known.has(name)) {
        known.set(name, node.metadata.uid);
        recordNodeEvent(client, { name, uid: node.metadata.uid }, "RegisteredNode", `Registered Node ${name} in Controller`);
      }
      const updated = await retryOnError(NODE_HEALTH_RETRY, (e) => !isNotFound(e), async () => {
        const current = attempt++ === 0 ? node : await nodeNamed(client, name);
        const seen = observeHealth(health.get(name), current, leases.get(name), now);
        health.set(name, seen);
        const conditions = staleConditions(current, seen, settings, now, nowText);
        return conditions
          ? await client.updateStatus(NODES, { ...current, status: { ...(current.status as object), conditions } })
          : current;
      }).catch((error: unknown) => {
        log.error(`updating the health of node ${name} failed; skipping it`, error);
        return undefined;
      });
      if (updated) {
        if (readyStatusOf(node) === "True" && readyStatusOf(updated) !== "True") recordNodeStatusChange(client, name, "NodeNotReady");
        checked.push(updated);
      }
    }
    for (const name of health.keys()) if (!listed.some((n) => n.metadata.name === name)) health.delete(name);
    for (const [name, uid] of known) {
      if (listed.some((n) => n.metadata.name === name)) continue;
      known.delete(name);
      recordNodeEvent(client, { name, uid }, "RemovingNode", `Removing Node ${name} from Controller`);
    }
    const tainting = evictionTainting(checked);
    const nodes = new Map<string, KubeObject>();
    for (const node of checked) nodes.set(String(node.metadata.name), await withControllerTaints(client, node, tainting, nowText));
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
    const loop = startNodeLifecycle(
      controllerClient(ctx.registry, ctx.catalog, { fieldManager: "kube-controller-manager", signal: ctx.signal }),
      {
        gracePeriodMs: config.nodeMonitorGracePeriodMs,
        startupGracePeriodMs: config.nodeStartupGracePeriodMs,
        monitorPeriodMs: config.nodeMonitorPeriodMs,
      },
    );
    ctx.signal.addEventListener("abort", () => loop.stop(), { once: true });
  },
};
