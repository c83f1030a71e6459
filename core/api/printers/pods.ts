/** Pods as kube's printPod shows them: READY, the aggregate STATUS reason, RESTARTS with the last restart's age. */
import type { TableRowCondition } from "../table.ts";
import type { KubeObject } from "../types.ts";
import { AGE_COLUMN, column, definePrinter, NAME_COLUMN, wideColumn } from "./_printer.ts";
import { ageOf, humanDuration, parseTimestamp } from "./duration.ts";

interface ContainerState {
  waiting?: { reason?: string };
  running?: object;
  terminated?: { reason?: string; exitCode?: number; signal?: number };
}

interface ContainerStatus {
  ready?: boolean;
  restartCount?: number;
  state?: ContainerState;
  lastState?: { terminated?: { finishedAt?: string } };
}

interface PodCondition {
  type: string;
  status?: string;
  reason?: string;
}

interface Pod extends KubeObject {
  spec?: {
    containers?: unknown[];
    initContainers?: unknown[];
    nodeName?: string;
    readinessGates?: { conditionType: string }[];
  };
  status?: {
    phase?: string;
    reason?: string;
    podIP?: string;
    podIPs?: { ip: string }[];
    nominatedNodeName?: string;
    conditions?: PodCondition[];
    initContainerStatuses?: ContainerStatus[];
    containerStatuses?: ContainerStatus[];
  };
}

/** The running tally printPod keeps while it walks the container statuses. */
interface Tally {
  reason: string;
  restarts: number;
  ready: number;
  lastRestart?: number;
}

function noteRestarts(tally: Tally, container: ContainerStatus): void {
  tally.restarts += container.restartCount ?? 0;
  const finished = parseTimestamp(container.lastState?.terminated?.finishedAt);
  if (finished !== undefined && (tally.lastRestart === undefined || finished > tally.lastRestart)) tally.lastRestart = finished;
}

/** The first init container not yet done sets an "Init:..." reason; true when the pod is still initializing. */
function walkInitContainers(pod: Pod, tally: Tally): boolean {
  const statuses = pod.status?.initContainerStatuses ?? [];
  for (const [index, container] of statuses.entries()) {
    noteRestarts(tally, container);
    const { terminated, waiting } = container.state ?? {};
    if (terminated && (terminated.exitCode ?? 0) === 0) continue;
    if (terminated) {
      if (terminated.reason) tally.reason = `Init:${terminated.reason}`;
      else if (terminated.signal) tally.reason = `Init:Signal:${terminated.signal}`;
      else tally.reason = `Init:ExitCode:${terminated.exitCode}`;
    } else if (waiting?.reason && waiting.reason !== "PodInitializing") {
      tally.reason = `Init:${waiting.reason}`;
    } else {
      tally.reason = `Init:${index}/${pod.spec?.initContainers?.length ?? 0}`;
    }
    return true;
  }
  return false;
}

function walkContainers(pod: Pod, tally: Tally): void {
  tally.restarts = 0;
  let hasRunning = false;
  // kube walks from the last container so the first container's state wins the reason.
  for (const container of [...(pod.status?.containerStatuses ?? [])].reverse()) {
    noteRestarts(tally, container);
    const { waiting, terminated, running } = container.state ?? {};
    if (waiting?.reason) tally.reason = waiting.reason;
    else if (terminated?.reason) tally.reason = terminated.reason;
    else if (terminated) tally.reason = terminated.signal ? `Signal:${terminated.signal}` : `ExitCode:${terminated.exitCode ?? 0}`;
    else if (container.ready && running) {
      hasRunning = true;
      tally.ready++;
    }
  }
  if (tally.reason === "Completed" && hasRunning) {
    const podReady = pod.status?.conditions?.some((c) => c.type === "Ready" && c.status === "True");
    tally.reason = podReady ? "Running" : "NotReady";
  }
}

function initialReason(pod: Pod): string {
  const status = pod.status ?? {};
  const gated = status.conditions?.some((c) => c.type === "PodScheduled" && c.reason === "SchedulingGated");
  return gated ? "SchedulingGated" : status.reason || status.phase || "";
}

function podTally(pod: Pod): Tally {
  const tally: Tally = { reason: initialReason(pod), restarts: 0, ready: 0 };
  if (!walkInitContainers(pod, tally)) walkContainers(pod, tally);
  if (pod.metadata.deletionTimestamp) tally.reason = pod.status?.reason === "NodeLost" ? "Unknown" : "Terminating";
  return tally;
}

function readinessGates(pod: Pod): string {
  const gates = pod.spec?.readinessGates ?? [];
  if (gates.length === 0) return "<none>";
  const conditions = pod.status?.conditions ?? [];
  const passed = gates.filter((gate) => conditions.find((c) => c.type === gate.conditionType)?.status === "True").length;
  return `${passed}/${gates.length}`;
}

/** printPod's podSuccessConditions and podFailedConditions: a finished pod's row is marked Completed. */
const COMPLETED_ROW: Record<string, TableRowCondition[]> = {
  Succeeded: [{ type: "Completed", status: "True", reason: "Succeeded", message: "The pod has completed successfully." }],
  Failed: [{ type: "Completed", status: "True", reason: "Failed", message: "The pod failed." }],
};

export const podPrinter = definePrinter<Pod>(
  [
    NAME_COLUMN,
    column("Ready", "Ready containers out of all containers"),
    column("Status", "The pod's aggregate status"),
    column("Restarts", "Container restarts, and how long ago the last one was"),
    AGE_COLUMN,
    wideColumn("IP", "The pod's IP address"),
    wideColumn("Node", "The node the pod is bound to"),
    wideColumn("Nominated Node", "The node the scheduler nominated while preempting"),
    wideColumn("Readiness Gates", "Readiness gates passed out of all gates"),
  ],
  (pod, now) => {
    const tally = podTally(pod);
    const restarts = tally.lastRestart === undefined
      ? `${tally.restarts}`
      : `${tally.restarts} (${humanDuration(now.getTime() - tally.lastRestart)} ago)`;
    const status = pod.status ?? {};
    return [
      pod.metadata.name,
      `${tally.ready}/${pod.spec?.containers?.length ?? 0}`,
      tally.reason,
      restarts,
      ageOf(pod, now),
      status.podIP || status.podIPs?.[0]?.ip || "<none>",
      pod.spec?.nodeName || "<none>",
      status.nominatedNodeName || "<none>",
      readinessGates(pod),
    ];
  },
  {
    conditions: (pod) => {
      const phase = pod.status?.phase;
      return phase === "Succeeded" || phase === "Failed" ? COMPLETED_ROW[phase] : undefined;
    },
  },
);
