/**
 * `--simulated-nodes=N`: registers Ready nodes sim-0..sim-<N-1>, renews their Leases, and plays their kubelets
 * (KWOK-style): bound pods become Running and Ready with a pod IP, ephemeral containers start, Job pods succeed
 * after a short run, and pods being deleted are removed once their deletion begins, as a kubelet does after
 * stopping them. Annotating a node `kubun.io/simulated-kubelet=stopped` stops its kubelet (no Lease renewals,
 * no pod updates) until the annotation goes, which is how a node that drops off the network looks to the node
 * lifecycle controller. A kubelet renews its Lease when it starts, then on the shared renewal tick together with the
 * other kubelets (and the apiserver identity Lease), so one durable commit carries every renewal of a tick.
 */
import type { KubeObject } from "../../api/types.ts";
import { collectionPrefix } from "../../registry/keys.ts";
import { nowTimestamp } from "../../registry/object-meta.ts";
import { type ControllerClient, LEASES, NODES, PODS } from "../workloads/mod.ts";
import { type ControlLoop, startLoop } from "../workloads/mod.ts";
import { controllerRefOf } from "../workloads/mod.ts";
import { podPhase } from "../workloads/mod.ts";
import { nodeAddress, nodeConditions, nodeLease, podCidrOf, simulatedNode, simulatedNodeName } from "./node-object.ts";
import { microTime, onRenewalTick } from "../runtime/mod.ts";
import { logger } from "../../log/mod.ts";
import { readyAgainStatus, runningStatus, succeededStatus, withEphemeralContainersStarted } from "./pod-status.ts";

const RESYNC_MS = 1000;
/** A kubelet renews its Lease every 10 s (a quarter of the 40 s lease duration). */
const LEASE_RENEW_MS = 10_000;
const KUBELET_FIELD_MANAGER = "kubelet";
const STOPPED_ANNOTATION = "kubun.io/simulated-kubelet";

const log = logger("controllers");

export interface SimulatedNodesOptions {
  /** How long a Job's pod runs before it succeeds. */
  jobPodRunMs?: number;
  /** How often Leases are renewed (at most every 10 s); a shortened --node-monitor-grace-period needs it sooner. */
  leaseRenewMs?: number;
}

export function startSimulatedNodes(client: ControllerClient, count: number, options: SimulatedNodesOptions = {}): ControlLoop {
  const jobPodRunMs = options.jobPodRunMs ?? 2000;
  const leaseRenewMs = Math.min(LEASE_RENEW_MS, options.leaseRenewMs ?? LEASE_RENEW_MS);
  const indexOf = new Map(Array.from({ length: count }, (_, i) => [simulatedNodeName(i), i]));
  /** The Nodes whose kubelets run, as the last pass read them. */
  let running = new Map<string, KubeObject>();
  const renewLeases = (nodes: KubeObject[]) => Promise.all(nodes.map((node) => renewLease(client, node, Date.now())));
  const pass = async () => {
    const now = Date.now();
    const seen = new Map<string, KubeObject>();
    for (let i = 0; i < count; i++) {
      const node = await runKubelet(client, i);
      if (node) seen.set(simulatedNodeName(i), node);
    }
    const started = [...seen].filter(([name]) => !running.has(name)).map(([, node]) => node);
    running = seen;
    await renewLeases(started);
    const pods = (await client.list(PODS)).filter((pod) => running.has(nodeNameOf(pod)));
    for (const pod of pods) await playKubelet(client, pod, { pods, index: indexOf.get(nodeNameOf(pod))!, now, jobPodRunMs });
  };
  const podStore = client.store(PODS);
  const loop = startLoop(podStore.changes, pass, {
    name: "simulated-nodes",
    prefixes: [collectionPrefix(podStore.type, "")],
    resyncMs: RESYNC_MS,
  });
  const stopRenewing = onRenewalTick(
    leaseRenewMs,
    () => void renewLeases([...running.values()]).catch((error) => log.error("simulated kubelets' Lease renewal failed", error)),
  );
  return {
    stop() {
      stopRenewing();
      loop.stop();
    },
    settled: () => loop.settled(),
    trigger: () => loop.trigger(),
  };
}

function nodeNameOf(pod: KubeObject): string {
  return (pod.spec as { nodeName?: string } | undefined)?.nodeName ?? "";
}

/**
 * Creates the Node if missing and, unless its kubelet is stopped, reports it Ready again when something else (the
 * node lifecycle controller) changed that. Answers the Node while its kubelet runs.
 */
async function runKubelet(client: ControllerClient, index: number): Promise<KubeObject | undefined> {
  const name = simulatedNodeName(index);
  const node = (await client.get(NODES, "", name)) ?? (await client.create(NODES, simulatedNode(index, nowTimestamp())));
  if (!node) return undefined;
  if (node.metadata.annotations?.[STOPPED_ANNOTATION] === "stopped") return undefined;
  const ready = (node.status as { conditions?: { type: string; status: string }[] } | undefined)?.conditions?.find((c) =>
    c.type === "Ready"
  );
  if (ready?.status !== "True") {
    await client.updateStatus(NODES, { ...node, status: { ...(node.status as object), conditions: nodeConditions(nowTimestamp()) } });
  }
  return node;
}

async function renewLease(client: ControllerClient, node: KubeObject, now: number): Promise<void> {
  const name = String(node.metadata.name);
  const lease = nodeLease(node, microTime(new Date(now)));
  await client.store(LEASES).update(lease.metadata.namespace!, name, (current) => (current ? { ...current, spec: lease.spec } : lease), {
    fieldManager: KUBELET_FIELD_MANAGER,
  });
}

interface KubeletView {
  pods: KubeObject[];
  index: number;
  now: number;
  jobPodRunMs: number;
}

async function playKubelet(client: ControllerClient, pod: KubeObject, view: KubeletView): Promise<void> {
  if (pod.metadata.deletionTimestamp) {
    await client.delete(PODS, pod, { gracePeriodSeconds: 0, preconditions: { uid: pod.metadata.uid } });
    return;
  }
  const phase = podPhase(pod);
  if (phase === "Pending" || phase === "") {
    const podIP = freePodIP(view.pods, view.index);
    await client.updateStatus(PODS, { ...pod, status: runningStatus(pod, { podIP, hostIP: nodeAddress(view.index) }, nowTimestamp()) });
    return;
  }
  const conditions = (pod.status as { conditions?: { type: string; status: string }[] } | undefined)?.conditions ?? [];
  if (phase === "Running" && conditions.some((c) => c.type === "Ready" && c.status === "False")) {
    await client.updateStatus(PODS, { ...pod, status: readyAgainStatus(pod, nowTimestamp()) });
    return;
  }
  const ephemeral = phase === "Running" ? withEphemeralContainersStarted(pod, nowTimestamp()) : undefined;
  if (ephemeral) {
    await client.updateStatus(PODS, { ...pod, status: ephemeral });
    return;
  }
  const startTime = Date.parse((pod.status as { startTime?: string } | undefined)?.startTime ?? "");
  if (phase === "Running" && controllerRefOf(pod)?.kind === "Job" && startTime + view.jobPodRunMs <= view.now) {
    await client.updateStatus(PODS, { ...pod, status: succeededStatus(pod, nowTimestamp()) });
  }
}

/** The lowest host address of the node's pod range that no pod on it holds. */
function freePodIP(pods: KubeObject[], index: number): string {
  const base = podCidrOf(index).replace(/\.0\/24$/, ".");
  const taken = new Set(pods.map((pod) => (pod.status as { podIP?: string } | undefined)?.podIP));
  for (let host = 2; host < 255; host++) {
    if (!taken.has(base + host)) return base + host;
  }
  throw new Error(`node ${simulatedNodeName(index)} has no free pod address`);
}
