/** A DELETE's preconditions, checked against the stored object as kube's storage.Preconditions.Check does. */
import { newConflict, type QualifiedResource } from "../api/errors.ts";
import type { KubeObject } from "../api/types.ts";
import type { DeleteOptions } from "./store-options.ts";

export function checkDeletePreconditions(
  resource: QualifiedResource,
  current: KubeObject,
  preconditions: DeleteOptions["preconditions"],
): void {
  const name = current.metadata.name as string;
  if (preconditions?.uid && preconditions.uid !== current.metadata.uid) {
    throw newConflict(
      resource,
      name,
      `Precondition failed: UID in precondition: ${preconditions.uid}, UID in object meta: ${current.metadata.uid}`,
    );
  }
  if (preconditions?.resourceVersion && preconditions.resourceVersion !== current.metadata.resourceVersion) {
    throw newConflict(
      resource,
      name,
      `Precondition failed: ResourceVersion in precondition: ${preconditions.resourceVersion}, ResourceVersion in object meta: ${current.metadata.resourceVersion}`,
    );
  }
}
