/**
 * A DELETE's preconditions against the stored object. The first check answers as kube's rest.BeforeDelete does
 * (the resource named by its Kind); a check repeated after a lost write race answers as storage.Preconditions.Check
 * does, and so do the namespace and CRD REST Delete always.
 */
import { newConflict, type QualifiedResource } from "../api/errors.ts";
import type { KubeObject } from "../api/types.ts";
import type { DeleteOptions } from "./store-options.ts";

export interface PreconditionSubject {
  /** The resource as storage errors name it. */
  qualified: QualifiedResource;
  /** The group and Kind, as BeforeDelete names the resource (schema.GroupResource{Group, Resource: Kind}). */
  kind: QualifiedResource;
}

function beforeDeleteMismatch(subject: PreconditionSubject, current: KubeObject, preconditions: DeleteOptions["preconditions"]) {
  const name = current.metadata.name as string;
  const { uid, resourceVersion } = current.metadata;
  if (preconditions?.uid && preconditions.uid !== uid) {
    return newConflict(
      subject.kind,
      name,
      `the UID in the precondition (${preconditions.uid}) does not match the UID in record (${uid}). The object might have been deleted and then recreated`,
    );
  }
  if (preconditions?.resourceVersion && preconditions.resourceVersion !== resourceVersion) {
    return newConflict(
      subject.kind,
      name,
      `the ResourceVersion in the precondition (${preconditions.resourceVersion}) does not match the ResourceVersion in record (${resourceVersion}). The object might have been modified`,
    );
  }
  return undefined;
}

function storageMismatch(subject: PreconditionSubject, current: KubeObject, preconditions: DeleteOptions["preconditions"]) {
  const name = current.metadata.name as string;
  const { uid, resourceVersion } = current.metadata;
  if (preconditions?.uid && preconditions.uid !== uid) {
    return newConflict(
      subject.qualified,
      name,
      `Precondition failed: UID in precondition: ${preconditions.uid}, UID in object meta: ${uid}`,
    );
  }
  if (preconditions?.resourceVersion && preconditions.resourceVersion !== resourceVersion) {
    return newConflict(
      subject.qualified,
      name,
      `Precondition failed: ResourceVersion in precondition: ${preconditions.resourceVersion}, ResourceVersion in object meta: ${resourceVersion}`,
    );
  }
  return undefined;
}

export function checkDeletePreconditions(
  subject: PreconditionSubject,
  current: KubeObject,
  preconditions: DeleteOptions["preconditions"],
  stage: "before-delete" | "storage",
): void {
  const mismatch = stage === "before-delete"
    ? beforeDeleteMismatch(subject, current, preconditions)
    : storageMismatch(subject, current, preconditions);
  if (mismatch) throw mismatch;
}
