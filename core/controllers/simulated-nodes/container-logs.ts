/**
 * What a simulated kubelet answers for a container's log (KWOK-style): the pod annotation
 * `kubun.io/simulated-log` (one log line per line, every container of the pod; none means an empty log), each
 * line stamped at the container's start, filtered by kube's PodLogOptions as the kubelet does (sinceSeconds /
 * sinceTime, tailLines, timestamps, limitBytes) and refused with the kubelet's messages where it would refuse.
 */
import type { KubeObject } from "../../api/types.ts";

export const SIMULATED_LOG_ANNOTATION = "kubun.io/simulated-log";

export interface LogQuery {
  timestamps: boolean;
  tailLines?: number;
  limitBytes?: number;
  /** Lines stamped before this instant (ms since the epoch) are left out. */
  sinceMs?: number;
}

interface ContainerState {
  running?: { startedAt?: string };
  terminated?: { startedAt?: string };
  waiting?: { reason?: string };
}

interface ContainerStatus {
  name: string;
  state?: ContainerState;
  lastState?: { terminated?: { containerID?: string } };
}

function statusesOf(pod: KubeObject): ContainerStatus[] {
  const status = (pod.status ?? {}) as Record<string, ContainerStatus[] | undefined>;
  return [...status.initContainerStatuses ?? [], ...status.containerStatuses ?? [], ...status.ephemeralContainerStatuses ?? []];
}

/** The kubelet's validateContainerLogStatus: the reason the log cannot be read, or undefined. */
export function logUnavailableReason(pod: KubeObject, container: string, previous: boolean): string | undefined {
  const name = String(pod.metadata.name);
  const status = statusesOf(pod).find((s) => s.name === container);
  if (previous) {
    return status?.lastState?.terminated?.containerID
      ? undefined
      : `previous terminated container "${container}" in pod "${name}" not found`;
  }
  if (!status?.state?.running && !status?.state?.terminated) {
    return `container "${container}" in pod "${name}" is waiting to start: ${status?.state?.waiting?.reason ?? "ContainerCreating"}`;
  }
  return undefined;
}

/** True while the container runs, so a followed log stays open. */
export function containerRunning(pod: KubeObject, container: string): boolean {
  return statusesOf(pod).find((s) => s.name === container)?.state?.running !== undefined;
}

/** The kubelet's timestamp form: RFC 3339 with nanoseconds (kuberuntime logs' timeFormatOut). */
function logTimestamp(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, ".$1000000Z");
}

export function simulatedLog(pod: KubeObject, container: string, query: LogQuery): string {
  const text = pod.metadata.annotations?.[SIMULATED_LOG_ANNOTATION] ?? "";
  const state = statusesOf(pod).find((s) => s.name === container)?.state;
  const startedAt = Date.parse(state?.running?.startedAt ?? state?.terminated?.startedAt ?? "") || 0;
  let lines = text === "" ? [] : text.replace(/\n$/, "").split("\n");
  if (query.sinceMs !== undefined && startedAt < query.sinceMs) lines = [];
  if (query.tailLines !== undefined) lines = query.tailLines === 0 ? [] : lines.slice(-query.tailLines);
  const out = lines.map((line) => `${query.timestamps ? `${logTimestamp(startedAt)} ` : ""}${line}\n`).join("");
  if (query.limitBytes === undefined) return out;
  return new TextDecoder().decode(new TextEncoder().encode(out).slice(0, query.limitBytes));
}
