/**
 * `--simulated-nodes=N`: registers Ready nodes sim-0..sim-<N-1>, renews their Leases, and plays their kubelets
 * (KWOK-style): bound pods become Running and Ready with a pod IP, Job pods succeed after a short run, and
 * pods being deleted are removed once their deletion begins, as a kubelet does after stopping them.
 */
import type { KubeObject } from "../../api/types.ts";
import { collectionPrefix } from "../../registry/keys.ts";
import { nowTimestamp } from "../../registry/object-meta.ts";
import { type ControllerClient, LEASES, NODES, PODS } from "../workloads/client.ts";
import { type ControlLoop, startLoop } from "../workloads/loop.ts";
import { controllerRefOf } from "../workloads/owner.ts";
import { podPhase } from "../workloads/pod-state.ts";
import { microTime, nodeAddress, nodeLease, podCidrOf, simulatedNode, simulatedNodeName } from "./node-object.ts";
import { runningStatus, succeededStatus } from "./pod-status.ts";

const RESYNC_MS = 1000;
const LEASE_RENEW_MS = 10_000;
const KUBELET_FIELD_MANAGER = "kubelet";

export interface SimulatedNodesOptions {
  /** How long a Job's pod runs before it succeeds. */
  jobPodRunMs?: number;
}

export function startSimulatedNodes(client: ControllerClient, count: number, options: SimulatedNodesOptions = {}): ControlLoop {
  const jobPodRunMs = options.jobPodRunMs ?? 2000;
  const indexOf = new Map(Array.from({ length: count }, (_, i) => [simulatedNodeName(i), i]));
  let lastRenewal = 0;
  const pass = async () => {
    const now = Date.now();
    if (now - lastRenewal >= LEASE_RENEW_MS) {
      for (let i = 0; i < count; i++) await registerNode(client, i, now);
      lastRenewal = now;
    }
    const pods = (await client.list(PODS)).filter((pod) => indexOf.has(nodeNameOf(pod)));
    for (const pod of pods) await playKubelet(client, pod, { pods, index: indexOf.get(nodeNameOf(pod))!, now, jobPodRunMs });
  };
  const podStore = client.store(PODS);
  return startLoop(podStore.storage, pass, { name: "simulated-nodes", prefixes: [collectionPrefix(podStore.type, "")], resyncMs: RESYNC_MS });
}

function nodeNameOf(pod: KubeObject): string {
  return (pod.spec as { nodeName?: string } | undefined)?.nodeName ?? "";
}

/** Creates the Node if missing and renews its Lease. */
async function registerNode(client: ControllerClient, index: number, now: number): Promise<void> {
  const name = simulatedNodeName(index);
  const node = (await client.get(NODES, "", name)) ?? (await client.create(NODES, simulatedNode(index, nowTimestamp())));
  if (!node) return;
  await clearNotReadyTaint(client, node);
  const lease = nodeLease(node, microTime(new Date(now)));
  await client.store(LEASES).update(lease.metadata.namespace!, name, (current) => (current ? { ...current, spec: lease.spec } : lease), {
    fieldManager: KUBELET_FIELD_MANAGER,
  });
}

const NOT_READY_TAINT = "node.kubernetes.io/not-ready";

/**
 * Admission (TaintNodesByCondition) registers every node with the not-ready taint; kube's node lifecycle
 * controller lifts it once the node reports Ready. kubun has no node lifecycle controller, so the simulated
 * node lifts it itself: its Ready condition is true from the start.
 */
async function clearNotReadyTaint(client: ControllerClient, node: KubeObject): Promise<void> {
  const spec = (node.spec ?? {}) as { taints?: { key: string }[] };
  if (!spec.taints?.some((taint) => taint.key === NOT_READY_TAINT)) return;
  const taints = spec.taints.filter((taint) => taint.key !== NOT_READY_TAINT);
  await client.update(NODES, { ...node, spec: { ...spec, taints: taints.length > 0 ? taints : undefined } });
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
