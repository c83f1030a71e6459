/** The pod spec inside a Pod or a workload's pod template: what the pod policies look at. */
import type { Container, EphemeralContainer, PodSpec, TypedObject } from "../../core/admission/sdk/mod.ts";

/** Resources whose objects hold a pod spec (kube's pod-spec-bearing workloads, as Kyverno's autogen covers them). */
export const POD_SPEC_RESOURCES = [
  "pods",
  "replicationcontrollers",
  "deployments.apps",
  "replicasets.apps",
  "statefulsets.apps",
  "daemonsets.apps",
  "jobs.batch",
  "cronjobs.batch",
] as const;

interface WithTemplate {
  spec?: { template?: { spec?: PodSpec }; jobTemplate?: { spec?: { template?: { spec?: PodSpec } } } };
}

export function podSpecOf(object: TypedObject): PodSpec | undefined {
  if (object.kind === "Pod") return (object as { spec?: PodSpec }).spec;
  const spec = (object as WithTemplate).spec;
  return spec?.template?.spec ?? spec?.jobTemplate?.spec?.template?.spec;
}

/** Every container with the field path kube's validation would name, e.g. `spec.initContainers[0]`. */
export function containersOf(spec: PodSpec): Array<{ path: string; container: Container | EphemeralContainer }> {
  const list = (field: "initContainers" | "containers" | "ephemeralContainers") =>
    (spec[field] ?? []).map((container, index) => ({ path: `${field}[${index}]`, container }));
  return [...list("initContainers"), ...list("containers"), ...list("ephemeralContainers")];
}
