/**
 * Where a pod's metadata and spec sit in the objects PodSecurity looks at (kube's PodSpecExtractor): pods
 * themselves, and the pod templates of workload resources, which only get warnings and audit annotations.
 */
import type { KubeObject } from "../../core/api/types.ts";
import type { GroupVersionResourceRef } from "../../core/admission/types.ts";

type Path = string[];
const TEMPLATE: Path = ["spec", "template"];

/** Path to the pod template of each workload resource, by `group/resource`. */
const WORKLOAD_TEMPLATES: Record<string, Path> = {
  "/replicationcontrollers": TEMPLATE,
  "/podtemplates": ["template"],
  "apps/replicasets": TEMPLATE,
  "apps/deployments": TEMPLATE,
  "apps/statefulsets": TEMPLATE,
  "apps/daemonsets": TEMPLATE,
  "batch/jobs": TEMPLATE,
  "batch/cronjobs": ["spec", "jobTemplate", "spec", "template"],
};

export const isWorkload = (resource: GroupVersionResourceRef) => `${resource.group}/${resource.resource}` in WORKLOAD_TEMPLATES;

/** The workload's pod template as a pod-shaped object (metadata and spec), or undefined when it has none. */
export function podFromWorkload(resource: GroupVersionResourceRef, object: KubeObject): KubeObject | undefined {
  const path = WORKLOAD_TEMPLATES[`${resource.group}/${resource.resource}`];
  if (!path) return undefined;
  let template: unknown = object;
  for (const key of path) template = (template as Record<string, unknown> | undefined)?.[key];
  if (typeof template !== "object" || template === null) return undefined;
  const { metadata, spec } = template as { metadata?: KubeObject["metadata"]; spec?: unknown };
  if (typeof spec !== "object" || spec === null) return undefined;
  // A copy: checks may fill in empty fields and must not touch the object being written.
  return structuredClone({ apiVersion: "v1", kind: "Pod", metadata: metadata ?? {}, spec } as KubeObject);
}
