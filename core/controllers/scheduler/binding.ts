/**
 * The pods/binding write (kube's BindingREST.setPodHostAndAnnotations): sets spec.nodeName, merges the
 * binding's annotations and marks the pod PodScheduled, with the store's guaranteedUpdate (straight on storage,
 * as kube does, since a pod update may not change nodeName). A bound or terminating pod answers 409.
 */
import { newConflict } from "../../api/errors.ts";
import type { KubeObject } from "../../api/types.ts";
import { nowTimestamp } from "../../registry/object-meta.ts";
import type { ResourceStore } from "../../registry/store.ts";

const BINDING = { group: "", resource: "pods/binding" };

export async function bindPod(
  pods: ResourceStore,
  target: { namespace: string; name: string; node: string },
  options: { annotations?: Record<string, string> } = {},
): Promise<KubeObject> {
  // A controller (the scheduler) binds as its own user: kube authorizes "create pods/binding".
  await pods.authorizeActor("create", target.namespace, target.name, "binding");
  return await pods.guaranteedUpdate(target.namespace, target.name, (pod) => {
    if (pod.metadata.deletionTimestamp) {
      throw newConflict(BINDING, target.name, `pod ${target.name} is being deleted, cannot be assigned to a host`);
    }
    const spec = (pod.spec ?? {}) as { nodeName?: string };
    if (spec.nodeName) throw newConflict(BINDING, target.name, `pod ${target.name} is already assigned to node "${spec.nodeName}"`);
    pod.spec = { ...spec, nodeName: target.node };
    if (options.annotations && Object.keys(options.annotations).length > 0) {
      pod.metadata.annotations = { ...pod.metadata.annotations, ...options.annotations };
    }
    pod.status = withScheduledCondition(pod.status);
    return pod;
  });
}

function withScheduledCondition(status: unknown): Record<string, unknown> {
  const current = (status ?? {}) as { conditions?: { type: string }[] };
  const conditions = (current.conditions ?? []).filter((c) => c.type !== "PodScheduled");
  conditions.push({ type: "PodScheduled", status: "True", lastProbeTime: null, lastTransitionTime: nowTimestamp() } as { type: string });
  return { ...current, conditions };
}
