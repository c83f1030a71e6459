/** Small predicates the built-in plugins share. */
import type { KubeObject } from "../core/api/types.ts";
import type { AdmissionAttributes, Operation } from "../core/admission/types.ts";

/** True for a write to the main resource `group/resource` with one of `operations`. */
export function isWriteTo(attributes: AdmissionAttributes, group: string, resource: string, operations: readonly Operation[]): boolean {
  return attributes.resource.group === group && attributes.resource.resource === resource && attributes.subresource === "" &&
    operations.includes(attributes.operation);
}

export interface Container {
  name: string;
  image?: string;
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  securityContext?: Record<string, unknown>;
  volumeMounts?: { name: string; mountPath: string; readOnly?: boolean }[];
  ports?: { containerPort?: number; hostPort?: number }[];
  [key: string]: unknown;
}

export interface PodSpec {
  containers?: Container[];
  initContainers?: Container[];
  ephemeralContainers?: Container[];
  volumes?: Record<string, unknown>[];
  [key: string]: unknown;
}

export function podSpec(pod: KubeObject): PodSpec {
  if (typeof pod.spec !== "object" || pod.spec === null) pod.spec = {};
  return pod.spec as PodSpec;
}

/** Init containers, containers and ephemeral containers, in kube's visiting order. */
export function allContainers(spec: PodSpec): Container[] {
  return [...(spec.initContainers ?? []), ...(spec.containers ?? []), ...(spec.ephemeralContainers ?? [])];
}
