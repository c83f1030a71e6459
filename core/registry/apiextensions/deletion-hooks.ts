/**
 * Deleting a CRD (apiextensions-apiserver's customresourcedefinition REST Delete): the first delete adds the
 * cleanup finalizer and a Terminating condition, and leaves the propagation finalizers alone; the CRD goes once the finalizer is removed, after every
 * custom resource of it is deleted.
 */
import type { KubeObject } from "../../api/types.ts";
import { CLEANUP_FINALIZER, type CRDCondition, type CustomResourceDefinition } from "./crd.ts";
import { withCondition } from "./conditions.ts";

export const CRD_DELETION_HOOKS = {
  /** A CRD not yet terminating is always held: its cleanup finalizer is added as deletion begins. */
  holdsDeletion: (obj: KubeObject): boolean => obj.metadata.deletionTimestamp === undefined,
  markTerminating: (obj: KubeObject): void => {
    const finalizers = obj.metadata.finalizers ?? [];
    if (!finalizers.includes(CLEANUP_FINALIZER)) obj.metadata.finalizers = [...finalizers, CLEANUP_FINALIZER];
    const terminating: CRDCondition = {
      type: "Terminating",
      status: "True",
      reason: "InstanceDeletionPending",
      message: "CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon",
    };
    withCondition(obj as CustomResourceDefinition, terminating);
  },
};
