/**
 * The pods/binding write (kube's BindingREST.setPodHostAndAnnotations): sets spec.nodeName, merges the
 * binding's annotations and marks the pod PodScheduled, straight on storage as kube does, since a pod
 * update may not change nodeName. A bound or terminating pod answers 409.
 */
import { newConflict, newNotFound } from "../../api/errors.ts";
import type { KubeObject } from "../../api/types.ts";
import { decodeStored, encodeForStorage } from "../../registry/codec.ts";
import { nowTimestamp } from "../../registry/object-meta.ts";
import type { ResourceStore } from "../../registry/store.ts";
import { isStorageError } from "../../storage/storage.ts";

const BINDING = { group: "", resource: "pods/binding" };
const MAX_ATTEMPTS = 8;

export async function bindPod(
  pods: ResourceStore,
  target: { namespace: string; name: string; node: string },
  options: { annotations?: Record<string, string> } = {},
): Promise<KubeObject> {
  // A controller (the scheduler) binds as its own user: kube authorizes "create pods/binding".
  await pods.authorizeActor("create", target.namespace, target.name, "binding");
  const key = pods.key(target.namespace, target.name);
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const kv = await pods.storage.get(key);
    if (!kv) throw newNotFound({ group: "", resource: "pods" }, target.name);
    const pod = decodeStored(kv);
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
    try {
      return decodeStored(await pods.storage.write({ op: "update", key, value: encodeForStorage(pod), expectedRevision: kv.modRevision }));
    } catch (e) {
      if (!isStorageError(e, "Conflict")) throw e;
    }
  }
  throw newConflict(BINDING, target.name, "the object has been modified; please apply your changes to the latest version and try again");
}

function withScheduledCondition(status: unknown): Record<string, unknown> {
  const current = (status ?? {}) as { conditions?: { type: string }[] };
  const conditions = (current.conditions ?? []).filter((c) => c.type !== "PodScheduled");
  conditions.push({ type: "PodScheduled", status: "True", lastProbeTime: null, lastTransitionTime: nowTimestamp() } as { type: string });
  return { ...current, conditions };
}
