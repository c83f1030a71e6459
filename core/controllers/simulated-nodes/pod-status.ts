/** The status a kubelet reports for a pod it runs, and for one whose containers all exited 0 (KWOK-style). */
import type { KubeObject } from "../../api/types.ts";

interface Container {
  name: string;
  image?: string;
}

function containersOf(pod: KubeObject, field: "containers" | "initContainers" | "ephemeralContainers"): Container[] {
  return ((pod.spec as Record<string, Container[] | undefined> | undefined)?.[field]) ?? [];
}

function condition(type: string, at: string) {
  return { type, status: "True", lastProbeTime: null, lastTransitionTime: at };
}

function containerStatus(c: Container, state: Record<string, unknown>, ready: boolean) {
  return {
    name: c.name,
    image: c.image ?? "",
    imageID: "",
    containerID: `kubun://${c.name}`,
    ready,
    restartCount: 0,
    started: ready,
    state,
  };
}

export function runningStatus(pod: KubeObject, placement: { podIP: string; hostIP: string }, now: string): Record<string, unknown> {
  const previous = (pod.status ?? {}) as Record<string, unknown>;
  const status: Record<string, unknown> = {
    ...previous,
    phase: "Running",
    conditions: ["Initialized", "Ready", "ContainersReady", "PodScheduled"].map((type) => condition(type, now)),
    hostIP: placement.hostIP,
    podIP: placement.podIP,
    podIPs: [{ ip: placement.podIP }],
    startTime: now,
    containerStatuses: containersOf(pod, "containers").map((c) => containerStatus(c, { running: { startedAt: now } }, true)),
  };
  const init = containersOf(pod, "initContainers");
  if (init.length > 0) {
    status.initContainerStatuses = init.map((c) =>
      containerStatus(c, { terminated: { exitCode: 0, reason: "Completed", startedAt: now, finishedAt: now } }, true)
    );
  }
  return status;
}

export function succeededStatus(pod: KubeObject, now: string): Record<string, unknown> {
  const previous = (pod.status ?? {}) as Record<string, unknown> & { startTime?: string };
  const startedAt = previous.startTime ?? now;
  const notReady = (type: string) => ({ type, status: "False", lastProbeTime: null, lastTransitionTime: now, reason: "PodCompleted" });
  return {
    ...previous,
    phase: "Succeeded",
    conditions: [condition("Initialized", startedAt), notReady("Ready"), notReady("ContainersReady"), condition("PodScheduled", startedAt)],
    containerStatuses: containersOf(pod, "containers").map((c) =>
      containerStatus(c, { terminated: { exitCode: 0, reason: "Completed", startedAt, finishedAt: now } }, false)
    ),
  };
}

/** A running pod's status with every ephemeral container it lacks started (what a kubelet reports after starting them); undefined when none is new. */
export function withEphemeralContainersStarted(pod: KubeObject, now: string): Record<string, unknown> | undefined {
  const status = (pod.status ?? {}) as Record<string, unknown> & { ephemeralContainerStatuses?: { name: string }[] };
  const known = new Set((status.ephemeralContainerStatuses ?? []).map((s) => s.name));
  const started = containersOf(pod, "ephemeralContainers").filter((c) => !known.has(c.name));
  if (started.length === 0) return undefined;
  // Ephemeral containers are never ready: they have no probes and do not count toward the pod's readiness.
  const added = started.map((c) => ({ ...containerStatus(c, { running: { startedAt: now } }, false), started: true }));
  return { ...status, ephemeralContainerStatuses: [...status.ephemeralContainerStatuses ?? [], ...added] };
}

/** A running pod's status once its kubelet reports again after the node lifecycle controller marked it not ready. */
export function readyAgainStatus(pod: KubeObject, now: string): Record<string, unknown> {
  const previous = (pod.status ?? {}) as Record<string, unknown> & { conditions?: { type: string; status: string }[] };
  const conditions = (previous.conditions ?? []).map((c) =>
    c.type === "Ready" && c.status !== "True" ? { ...c, status: "True", lastTransitionTime: now } : c
  );
  return { ...previous, conditions };
}
