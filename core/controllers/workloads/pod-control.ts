/**
 * kube's RealPodControl.createPods and DeletePod (pkg/controller/controller_utils.go), shared by the ReplicaSet,
 * ReplicationController, Job and DaemonSet loops: a created pod records a Normal Event SuccessfulCreate
 * "Created pod: <name>" on the owner, a deleted one SuccessfulDelete "Deleted pod: <name>"; a pod create refused by
 * authorization or admission records a Warning Event FailedCreate "Error creating: <error>" (not when the namespace
 * is terminating), a refused delete FailedDelete "Error deleting: <error>", and the error goes on to the caller.
 * The StatefulSet loop words its Events its own way (StatefulPodControl.recordPodEvent) through `words`.
 */
import { isNotFound, isStatusError } from "../../api/errors.ts";
import type { KubeObject } from "../../api/types.ts";
import { isNamespaceTerminating } from "../_races.ts";
import { type ControllerClient, PODS } from "./client.ts";

/** How a controller words its pod Events: RealPodControl's by default. */
export interface PodEventWords {
  created(pod: KubeObject): string;
  createFailed(pod: KubeObject, error: Error): string;
  deleted(pod: KubeObject): string;
  deleteFailed(pod: KubeObject, error: Error): string;
}

const REAL_POD_CONTROL: PodEventWords = {
  created: (pod) => `Created pod: ${pod.metadata.name}`,
  createFailed: (_, error) => `Error creating: ${error.message}`,
  deleted: (pod) => `Deleted pod: ${pod.metadata.name}`,
  deleteFailed: (_, error) => `Error deleting: ${error.message}`,
};

/** The created pod, or null when one of its name already exists. `component` is the controller's event source. */
export async function createPodFor(
  client: ControllerClient,
  owner: KubeObject,
  pod: KubeObject,
  component: string,
  words: PodEventWords = REAL_POD_CONTROL,
): Promise<KubeObject | null> {
  let created: KubeObject | null;
  try {
    created = await client.create(PODS, pod);
  } catch (error) {
    if (isStatusError(error) && !isNamespaceTerminating(error)) {
      client.recordEvent(owner, { type: "Warning", reason: "FailedCreate", message: words.createFailed(pod, error), component });
    }
    throw error;
  }
  if (created) client.recordEvent(owner, { type: "Normal", reason: "SuccessfulCreate", message: words.created(created), component });
  return created;
}

/** Deletes an owner's pod; a pod already gone records nothing (DeletePod returns on NotFound before its Events). */
export async function deletePodFor(
  client: ControllerClient,
  owner: KubeObject,
  pod: KubeObject,
  component: string,
  words: PodEventWords = REAL_POD_CONTROL,
): Promise<void> {
  try {
    await client.store(PODS).delete(String(pod.metadata.namespace), String(pod.metadata.name));
  } catch (error) {
    if (isNotFound(error)) return;
    if (isStatusError(error)) {
      client.recordEvent(owner, { type: "Warning", reason: "FailedDelete", message: words.deleteFailed(pod, error), component });
    }
    throw error;
  }
  client.recordEvent(owner, { type: "Normal", reason: "SuccessfulDelete", message: words.deleted(pod), component });
}
