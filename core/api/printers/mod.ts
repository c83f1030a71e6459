/**
 * kube-apiserver 1.26's server-side Table printers for built-in kinds (pkg/printers/internalversion). Each kind's
 * definition (core/registry/kind-facts.ts) names its printer; kinds kube prints with the default Name / Created At
 * columns (roles, clusterroles, limitranges, customresourcedefinitions, ...) name none.
 */
export { certificateSigningRequestPrinter, roleBindingPrinter } from "./access.ts";
export { apiServicePrinter, flowSchemaPrinter, priorityLevelConfigurationPrinter, webhookConfigurationPrinter } from "./apiserver.ts";
export { horizontalPodAutoscalerPrinter, podDisruptionBudgetPrinter, scalePrinter } from "./autoscaling.ts";
export { cronJobPrinter, jobPrinter } from "./batch.ts";
export {
  componentStatusPrinter,
  leasePrinter,
  namespacePrinter,
  nodePrinter,
  priorityClassPrinter,
  runtimeClassPrinter,
} from "./cluster.ts";
export { configMapPrinter, resourceQuotaPrinter, secretPrinter, serviceAccountPrinter } from "./config.ts";
export { eventPrinter } from "./events.ts";
export {
  endpointSlicePrinter,
  endpointsPrinter,
  ingressClassPrinter,
  ingressPrinter,
  networkPolicyPrinter,
  servicePrinter,
} from "./network.ts";
export { podPrinter } from "./pods.ts";
export {
  csiDriverPrinter,
  csiNodePrinter,
  csiStorageCapacityPrinter,
  persistentVolumeClaimPrinter,
  persistentVolumePrinter,
  storageClassPrinter,
  volumeAttachmentPrinter,
} from "./storage.ts";
export {
  controllerRevisionPrinter,
  daemonSetPrinter,
  deploymentPrinter,
  podTemplatePrinter,
  replicaSetPrinter,
  replicationControllerPrinter,
  statefulSetPrinter,
} from "./workloads.ts";

export type { Printer } from "./_printer.ts";
export { humanDuration, timeSince } from "./duration.ts";
export { selectorText } from "./_format.ts";
