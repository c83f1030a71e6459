/**
 * kube's RealPodControl.createPods (pkg/controller/controller_utils.go), shared by the ReplicaSet,
 * ReplicationController, Job and DaemonSet loops: a pod create refused by authorization or admission records a
 * Warning Event FailedCreate "Error creating: <error>" on the owner (not when the namespace is terminating) and
 * the error goes on to the caller.
 */
import { isStatusError } from "../../api/errors.ts";
import type { KubeObject } from "../../api/types.ts";
import { isNamespaceTerminating } from "../_races.ts";
import { newEvent } from "../runtime/mod.ts";
import { type ControllerClient, EVENTS, PODS } from "./client.ts";

/**
 * The created pod, or null when one of its name already exists. `component` is the controller's event source;
 * `describe` words the event (default RealPodControl's "Error creating: <error>").
 */
export async function createPodFor(
  client: ControllerClient,
  owner: KubeObject,
  pod: KubeObject,
  component: string,
  describe: (error: Error) => string = (error) => `Error creating: ${error.message}`,
): Promise<KubeObject | null> {
  try {
    return await client.create(PODS, pod);
  } catch (error) {
    if (isStatusError(error) && !isNamespaceTerminating(error)) {
      await client.create(
        EVENTS,
        newEvent(owner, { type: "Warning", reason: "FailedCreate", message: describe(error), component }),
      );
    }
    throw error;
  }
}
