/**
 * The resourceVersion an update names (kube's Store.Update): a stale one is a 409; none (or "0", which kube's
 * Versioner.ObjectResourceVersion parses as none) is an unconditional update, which a client's PUT gets only for
 * kinds whose strategy AllowUnconditionalUpdate, else a 422.
 */
import { newConflict, newInvalid, OBJECT_MODIFIED } from "../api/errors.ts";
import type { KubeObject } from "../api/types.ts";
import type { ResourceType } from "../api/resource-type.ts";

/** How kube prints the unset resourceVersion (a uint64 0 with %#v) in "must be specified for an update". */
const UNSET_RESOURCE_VERSION = "0x0";

export function checkUpdateVersion(type: ResourceType, next: KubeObject, current: KubeObject, refuseUnconditional: boolean): void {
  if (next.metadata.resourceVersion === "0") delete next.metadata.resourceVersion;
  const version = next.metadata.resourceVersion;
  const name = current.metadata.name as string;
  if (!version && refuseUnconditional) {
    throw newInvalid({ group: type.group, kind: type.resource }, name, [
      {
        type: "FieldValueInvalid",
        field: "metadata.resourceVersion",
        value: 0,
        valueText: UNSET_RESOURCE_VERSION,
        detail: "must be specified for an update",
      },
    ]);
  }
  if (version && version !== current.metadata.resourceVersion) {
    throw newConflict({ group: type.group, resource: type.resource }, name, OBJECT_MODIFIED);
  }
}
