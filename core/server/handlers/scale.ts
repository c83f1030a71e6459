/**
 * The scale subresource (autoscaling/v1 Scale) of the built-in kinds whose catalog entry has one (deployments,
 * replicasets, statefulsets and replicationcontrollers in 1.26): their spec.replicas, status.replicas and selector
 * (kube's ScaleREST in pkg/registry/apps/*\/storage and core/replicationcontroller/storage).
 */
import { isPlainObject, type KubeObject } from "../../api/types.ts";
import { scalePrinter, selectorText } from "../../api/printers/mod.ts";
import type { ResourceType } from "../../api/resource-type.ts";
import { virtualHandlerKey } from "../virtual-handlers.ts";
import type { Handler } from "./context.ts";
import { type ScaleAccess, scaleSubresourceHandler } from "./scale-subresource.ts";

/** The parent's selector as a label-selector string; a replication controller's is a plain label set. */
function selectorOf(parent: KubeObject): string | undefined {
  const selector = (parent.spec as { selector?: unknown } | undefined)?.selector;
  if (!isPlainObject(selector)) return undefined;
  const asLabelSelector = parent.kind === "ReplicationController" ? { matchLabels: selector as Record<string, string> } : selector;
  return selectorText(asLabelSelector) || undefined;
}

const WORKLOAD_SCALE: ScaleAccess = {
  specReplicas: (parent) => (parent.spec as { replicas?: number } | undefined)?.replicas,
  statusReplicas: (parent) => (parent.status as { replicas?: number } | undefined)?.replicas,
  selector: selectorOf,
  setSpecReplicas: (parent, replicas) => {
    parent.spec = { ...(parent.spec as object), replicas };
  },
};

/** The virtual-handler entries that serve `<resource>/scale` of each of `types` that has that subresource. */
export function scaleHandlers(types: readonly ResourceType[]): [string, Handler][] {
  // Their ScaleREST.ConvertToTable hands the Scale to the store's printers, which print it with printScale.
  const handleScale = scaleSubresourceHandler(() => WORKLOAD_SCALE, scalePrinter);
  return types.filter((type) => type.subresources.some((s) => s.name === "scale"))
    .map((type) => [virtualHandlerKey(type.group, type.resource, "scale"), handleScale]);
}
