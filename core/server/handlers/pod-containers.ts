/**
 * Which container a pod subresource request (log, exec, attach) addresses, chosen and checked as kube's
 * validateContainer (pkg/registry/core/pod/strategy.go) does, with its 400 messages.
 */
import { newBadRequest } from "../../api/errors.ts";
import type { KubeObject } from "../../api/types.ts";

interface PodSpecContainers {
  initContainers?: { name: string }[];
  containers?: { name: string }[];
  ephemeralContainers?: { name: string }[];
  nodeName?: string;
}

function specOf(pod: KubeObject): PodSpecContainers {
  return (pod.spec ?? {}) as PodSpecContainers;
}

/** Every container name in podutil.VisitContainers order: init containers, containers, ephemeral containers. */
export function allContainerNames(pod: KubeObject): string[] {
  const spec = specOf(pod);
  return [...spec.initContainers ?? [], ...spec.containers ?? [], ...spec.ephemeralContainers ?? []].map((c) => c.name);
}

export function nodeNameOf(pod: KubeObject): string {
  return specOf(pod).nodeName ?? "";
}

/** The named container, or the only one when none is named (validateContainer). */
export function validateContainer(requested: string, pod: KubeObject): string {
  const name = String(pod.metadata.name);
  if (requested !== "") {
    if (!allContainerNames(pod).includes(requested)) throw newBadRequest(`container ${requested} is not valid for pod ${name}`);
    return requested;
  }
  const containers = specOf(pod).containers ?? [];
  if (containers.length === 1) return containers[0]!.name;
  if (containers.length === 0) throw newBadRequest(`a container name must be specified for pod ${name}`);
  // Go prints a []string as [a b c].
  throw newBadRequest(`a container name must be specified for pod ${name}, choose one of: [${allContainerNames(pod).join(" ")}]`);
}
