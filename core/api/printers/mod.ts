/**
 * kube-apiserver 1.26's server-side Table printers for built-in kinds (pkg/printers/internalversion), looked up
 * by group and resource. Kinds kube prints with the default Name / Created At columns (roles, clusterroles,
 * limitranges, customresourcedefinitions, ...) have no printer here, so callers fall back to those columns.
 */
import { certificateSigningRequestPrinter, roleBindingPrinter } from "./access.ts";
import { apiServicePrinter, flowSchemaPrinter, priorityLevelConfigurationPrinter, webhookConfigurationPrinter } from "./apiserver.ts";
import { horizontalPodAutoscalerPrinter, podDisruptionBudgetPrinter } from "./autoscaling.ts";
import { cronJobPrinter, jobPrinter } from "./batch.ts";
import {
  componentStatusPrinter,
  leasePrinter,
  namespacePrinter,
  nodePrinter,
  priorityClassPrinter,
  runtimeClassPrinter,
} from "./cluster.ts";
import { configMapPrinter, resourceQuotaPrinter, secretPrinter, serviceAccountPrinter } from "./config.ts";
import { eventPrinter } from "./events.ts";
import {
  endpointSlicePrinter,
  endpointsPrinter,
  ingressClassPrinter,
  ingressPrinter,
  networkPolicyPrinter,
  servicePrinter,
} from "./network.ts";
import { podPrinter } from "./pods.ts";
import type { Printer } from "./_printer.ts";
import {
  csiDriverPrinter,
  csiNodePrinter,
  persistentVolumeClaimPrinter,
  persistentVolumePrinter,
  storageClassPrinter,
  volumeAttachmentPrinter,
} from "./storage.ts";
import {
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

const PRINTERS_BY_GROUP: Record<string, Record<string, Printer>> = {
  "": {
    pods: podPrinter,
    podtemplates: podTemplatePrinter,
    replicationcontrollers: replicationControllerPrinter,
    services: servicePrinter,
    endpoints: endpointsPrinter,
    nodes: nodePrinter,
    namespaces: namespacePrinter,
    events: eventPrinter,
    configmaps: configMapPrinter,
    secrets: secretPrinter,
    serviceaccounts: serviceAccountPrinter,
    persistentvolumes: persistentVolumePrinter,
    persistentvolumeclaims: persistentVolumeClaimPrinter,
    resourcequotas: resourceQuotaPrinter,
    componentstatuses: componentStatusPrinter,
  },
  apps: {
    replicasets: replicaSetPrinter,
    deployments: deploymentPrinter,
    statefulsets: statefulSetPrinter,
    daemonsets: daemonSetPrinter,
    controllerrevisions: controllerRevisionPrinter,
  },
  batch: { jobs: jobPrinter, cronjobs: cronJobPrinter },
  autoscaling: { horizontalpodautoscalers: horizontalPodAutoscalerPrinter },
  policy: { poddisruptionbudgets: podDisruptionBudgetPrinter },
  "discovery.k8s.io": { endpointslices: endpointSlicePrinter },
  "networking.k8s.io": { ingresses: ingressPrinter, ingressclasses: ingressClassPrinter, networkpolicies: networkPolicyPrinter },
  "events.k8s.io": { events: eventPrinter },
  "storage.k8s.io": {
    storageclasses: storageClassPrinter,
    csidrivers: csiDriverPrinter,
    csinodes: csiNodePrinter,
    volumeattachments: volumeAttachmentPrinter,
  },
  "rbac.authorization.k8s.io": { rolebindings: roleBindingPrinter, clusterrolebindings: roleBindingPrinter },
  "coordination.k8s.io": { leases: leasePrinter },
  "scheduling.k8s.io": { priorityclasses: priorityClassPrinter },
  "node.k8s.io": { runtimeclasses: runtimeClassPrinter },
  "certificates.k8s.io": { certificatesigningrequests: certificateSigningRequestPrinter },
  "admissionregistration.k8s.io": {
    mutatingwebhookconfigurations: webhookConfigurationPrinter,
    validatingwebhookconfigurations: webhookConfigurationPrinter,
  },
  "flowcontrol.apiserver.k8s.io": { flowschemas: flowSchemaPrinter, prioritylevelconfigurations: priorityLevelConfigurationPrinter },
  "apiregistration.k8s.io": { apiservices: apiServicePrinter },
};

/** The printer kube-apiserver uses for a group's resource, or undefined for the default Name / Created At columns. */
export function printerFor(group: string, resource: string): Printer | undefined {
  const printers = PRINTERS_BY_GROUP[group];
  return printers && Object.hasOwn(printers, resource) ? printers[resource] : undefined;
}
