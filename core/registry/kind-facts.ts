/**
 * What kube-apiserver 1.26 decides by hand for each built-in kind, one entry per `<group>/<resource>` of the
 * catalog: the registry Store fields and strategy choices (pkg/registry/<group>/<kind>/strategy.go and
 * storage/storage.go), the name rule and value rules (pkg/apis/<group>/validation), the Table printer
 * (pkg/printers/internalversion) and the selectable fields (pkg/apis/<group>/<version>/conversion.go).
 * Everything mechanical (names, scope, verbs, subresources, what DELETE answers, protobuf) comes from the
 * generated catalog and descriptors instead; definition.ts joins the two. An empty entry means kube's defaults.
 */
import {
  CERTIFICATE_SIGNING_REQUEST_FIELDS,
  CORE_EVENT_FIELDS,
  EVENTS_V1_FIELDS,
  JOB_FIELDS,
  type KindFields,
  NAMESPACE_FIELDS,
  NODE_FIELDS,
  POD_FIELDS,
  REPLICATION_CONTROLLER_FIELDS,
  SECRET_FIELDS,
} from "../api/field-labels.ts";
import { nameIsDNS1035Label, nameIsDNSLabel, nameIsPathSegment, type NameValidator } from "../api/names.ts";
import * as printers from "../api/printers/mod.ts";
import type { Printer } from "../api/printers/mod.ts";
import { CRD_DELETION_HOOKS } from "./apiextensions/mod.ts";
import { validateCustomResourceDefinition, validateCustomResourceDefinitionUpdate } from "./apiextensions/mod.ts";
import { CSR_STRATEGY } from "./csr-strategy.ts";
import { generateJobSelector } from "./job-selector.ts";
import { prepareServiceUpdate } from "./service-cluster-ips.ts";
import { RESET_OBJECT_META_FOR_STATUS } from "./subresource-writes.ts";
import { foldStringData, localAPIServiceStatus, NAMESPACE_HOOKS, podGracePeriod, podInitialStatus, type Strategy } from "./strategy.ts";
import * as rules from "./validation/mod.ts";
import { coreEventFromEventsV1 } from "./conversion/mod.ts";
import type { KindRules } from "./validation/mod.ts";

/** The strategy's functions (kube's PrepareForCreate/Update, CheckGracefulDelete, BeginUpdate, ...). */
export type StrategyHooks = Omit<
  Partial<Strategy>,
  "tracksGeneration" | "allowCreateOnUpdate" | "allowUnconditionalUpdate" | "hasStatus" | "defaultPropagation"
>;

export interface KindFacts {
  /** metadata.generation is kept (the strategy's PrepareForCreate sets 1, PrepareForUpdate bumps it). */
  tracksGeneration?: true;
  /** AllowCreateOnUpdate is true: a PUT on a missing object creates it. */
  allowCreateOnUpdate?: true;
  /** AllowUnconditionalUpdate is false: a PUT must name the resourceVersion it replaces. */
  conditionalUpdateOnly?: true;
  /** The status subresource's PrepareForCreate keeps the client's status (the kubelet reports its Node's). */
  keepsStatusOnCreate?: true;
  /** DefaultGarbageCollectionPolicy is OrphanDependents (dependents stay when a delete names no policy). */
  orphansDependents?: true;
  /** A REST wrapper answers DELETE with the object although kube's OpenAPI documents a Status (namespaces). */
  returnsDeletedObject?: true;
  hooks?: StrategyHooks;
  /** kube's ValidateXName; absent = DNS-1123 subdomain. */
  name?: NameValidator;
  /**
   * The name rule is a create rule only: kube's ValidateXUpdate checks just that the name is unchanged
   * (ValidateObjectMetaUpdate), so an object another group created under a looser rule stays updatable.
   */
  nameRuleOnCreateOnly?: true;
  /** Value rules of the main resource, and of subresources that have their own (pods/ephemeralcontainers). */
  rules?: KindRules;
  subresourceRules?: Record<string, KindRules>;
  /** The Table printer; absent = kube's default Name / Created At columns. */
  printer?: Printer;
  /** The selectable fields; absent = runtime.DefaultMetaV1FieldSelectorConversion. */
  fields?: KindFields;
  /** kube-apiserver's DefaultWatchCacheSizes gives it no watch cache: every read goes to the etcd3 store (events). */
  noWatchCache?: true;
}

const { withRoleRef, withImmutableSelector, statusUpdateRules } = rules;
const pods = { create: rules.validatePod, update: rules.validatePodUpdate };
/** The event strategy validates the internal core.Event by the request's group/version (requestGroupVersion). */
const coreEvents: rules.KindRules = {
  create: (obj) => rules.validateEventCreate(obj, "v1"),
  update: (obj, old) => rules.validateEventUpdate(obj, old, "v1"),
};
const eventsV1Events: rules.KindRules = {
  create: (obj) => rules.validateEventCreate(coreEventFromEventsV1(obj), "events.k8s.io/v1"),
  update: (obj, old) => rules.validateEventUpdate(coreEventFromEventsV1(obj), coreEventFromEventsV1(old), "events.k8s.io/v1"),
};

export const KIND_FACTS: Readonly<Record<string, KindFacts>> = {
  "/bindings": {},
  "/componentstatuses": { printer: printers.componentStatusPrinter },
  "/configmaps": { rules: { create: rules.validateConfigMap, update: rules.validateConfigMapUpdate }, printer: printers.configMapPrinter },
  "/endpoints": { allowCreateOnUpdate: true, printer: printers.endpointsPrinter },
  "/events": {
    allowCreateOnUpdate: true,
    noWatchCache: true,
    // core/v1 Events get only legacyValidateEvent, no ValidateObjectMeta: BeforeCreate's path-segment name rule.
    name: nameIsPathSegment,
    rules: coreEvents,
    printer: printers.eventPrinter,
    fields: CORE_EVENT_FIELDS,
  },
  "/limitranges": { allowCreateOnUpdate: true },
  "/namespaces": {
    // pkg/registry/core/namespace/storage wraps the Store's Delete and answers the Namespace; its OpenAPI says Status.
    returnsDeletedObject: true,
    hooks: { initialStatus: () => ({ phase: "Active" }), ...NAMESPACE_HOOKS },
    name: nameIsDNSLabel,
    rules: { create: rules.validateNamespace },
    printer: printers.namespacePrinter,
    fields: NAMESPACE_FIELDS,
  },
  "/nodes": { keepsStatusOnCreate: true, printer: printers.nodePrinter, fields: NODE_FIELDS },
  "/persistentvolumeclaims": {
    hooks: { initialStatus: () => ({ phase: "Pending" }) },
    rules: { create: rules.validatePersistentVolumeClaim },
    printer: printers.persistentVolumeClaimPrinter,
  },
  "/persistentvolumes": { hooks: { initialStatus: () => ({ phase: "Pending" }) }, printer: printers.persistentVolumePrinter },
  "/pods": {
    // podStatusStrategy.PrepareForUpdate: old kubelets corrupted ownerReferences, so pods/status cannot change them.
    hooks: {
      initialStatus: podInitialStatus,
      checkGracefulDelete: podGracePeriod,
      statusKeepsMetadata: ["ownerReferences"],
      statusResetMetadata: ["deletionTimestamp", "ownerReferences"],
    },
    rules: pods,
    subresourceRules: { ephemeralcontainers: { create: rules.validatePod, update: rules.validatePodEphemeralContainersUpdate } },
    printer: printers.podPrinter,
    fields: POD_FIELDS,
  },
  "/podtemplates": {
    rules: { create: (obj) => rules.validatePodTemplateSpec(obj.template, "template") },
    printer: printers.podTemplatePrinter,
  },
  "/replicationcontrollers": {
    tracksGeneration: true,
    rules: { create: rules.validateReplicationController },
    // core's ValidateReplicationControllerStatusUpdate checks the counters as apps' ReplicaSet check does.
    subresourceRules: { status: statusUpdateRules(rules.validateReplicaSetStatusUpdate) },
    printer: printers.replicationControllerPrinter,
    fields: REPLICATION_CONTROLLER_FIELDS,
  },
  "/resourcequotas": { printer: printers.resourceQuotaPrinter },
  "/secrets": {
    hooks: { normalize: foldStringData },
    rules: { create: rules.validateSecret, update: rules.validateSecretUpdate },
    printer: printers.secretPrinter,
    fields: SECRET_FIELDS,
  },
  "/serviceaccounts": { printer: printers.serviceAccountPrinter },
  "/services": {
    hooks: { beginUpdate: prepareServiceUpdate },
    name: nameIsDNS1035Label,
    rules: { create: rules.validateService, update: rules.validateServiceUpdate },
    printer: printers.servicePrinter,
  },
  "admissionregistration.k8s.io/mutatingwebhookconfigurations": {
    tracksGeneration: true,
    conditionalUpdateOnly: true,
    rules: { create: (obj) => rules.validateMutatingWebhookConfiguration(obj), update: rules.validateMutatingWebhookConfiguration },
    printer: printers.webhookConfigurationPrinter,
  },
  "admissionregistration.k8s.io/validatingwebhookconfigurations": {
    tracksGeneration: true,
    conditionalUpdateOnly: true,
    rules: { create: (obj) => rules.validateValidatingWebhookConfiguration(obj), update: rules.validateValidatingWebhookConfiguration },
    printer: printers.webhookConfigurationPrinter,
  },
  "apiextensions.k8s.io/customresourcedefinitions": {
    tracksGeneration: true,
    // Its statusStrategy.PrepareForUpdate calls ResetObjectMetaForStatus(&newObj.ObjectMeta, &newObj.ObjectMeta): the
    // client's metadata stays, so no statusKeepsMetadata; GetResetFields names all of metadata.
    hooks: { ...CRD_DELETION_HOOKS, statusResetMetadata: "all" },
    conditionalUpdateOnly: true,
    rules: { create: validateCustomResourceDefinition, update: validateCustomResourceDefinitionUpdate },
  },
  "apiregistration.k8s.io/apiservices": {
    conditionalUpdateOnly: true,
    // apiServerStatusStrategy.PrepareForUpdate keeps labels, annotations, finalizers and ownerReferences; its
    // GetResetFields names all of metadata.
    hooks: { initialStatus: localAPIServiceStatus, statusKeepsMetadata: RESET_OBJECT_META_FOR_STATUS, statusResetMetadata: "all" },
    // "<version>.<group>", e.g. "v1." for the core group; validation/apiservice.ts checks the exact form.
    name: nameIsPathSegment,
    rules: { create: rules.validateAPIService },
    printer: printers.apiServicePrinter,
  },
  "apps/controllerrevisions": { printer: printers.controllerRevisionPrinter },
  "apps/daemonsets": {
    tracksGeneration: true,
    rules: { create: rules.validateDaemonSet, update: withImmutableSelector(rules.validateDaemonSet) },
    subresourceRules: { status: statusUpdateRules(rules.validateDaemonSetStatusUpdate) },
    printer: printers.daemonSetPrinter,
  },
  "apps/deployments": {
    tracksGeneration: true,
    // deploymentStatusStrategy.PrepareForUpdate: a status write cannot change the labels. Its ResetFieldsFor names
    // MakePathOrDie("metadata.labels"), one field of that dotted name, which no object has: no metadata is reset.
    hooks: { statusKeepsMetadata: ["labels"], annotationsBumpGeneration: true },
    rules: { create: rules.validateDeployment, update: withImmutableSelector(rules.validateDeployment) },
    subresourceRules: { status: statusUpdateRules(rules.validateDeploymentStatusUpdate) },
    printer: printers.deploymentPrinter,
  },
  "apps/replicasets": {
    tracksGeneration: true,
    rules: { create: rules.validateReplicaSet, update: withImmutableSelector(rules.validateReplicaSet) },
    subresourceRules: { status: statusUpdateRules(rules.validateReplicaSetStatusUpdate) },
    printer: printers.replicaSetPrinter,
  },
  "apps/statefulsets": {
    tracksGeneration: true,
    rules: { create: rules.validateStatefulSet, update: rules.validateStatefulSetUpdate },
    subresourceRules: { status: statusUpdateRules(rules.validateStatefulSetStatusUpdate) },
    printer: printers.statefulSetPrinter,
  },
  "authentication.k8s.io/tokenreviews": {},
  "authorization.k8s.io/localsubjectaccessreviews": {},
  "authorization.k8s.io/selfsubjectaccessreviews": {},
  "authorization.k8s.io/selfsubjectrulesreviews": {},
  "authorization.k8s.io/subjectaccessreviews": {},
  "autoscaling/horizontalpodautoscalers": {
    tracksGeneration: true,
    subresourceRules: { status: statusUpdateRules(rules.validateHorizontalPodAutoscalerStatusUpdate) },
    printer: printers.horizontalPodAutoscalerPrinter,
  },
  "batch/cronjobs": {
    tracksGeneration: true,
    rules: { create: rules.validateCronJob },
    // cronJobStatusStrategy.ValidateUpdate returns no errors: a status write is not checked.
    subresourceRules: { status: statusUpdateRules(() => []) },
    printer: printers.cronJobPrinter,
  },
  "batch/jobs": {
    tracksGeneration: true,
    // jobStrategy.DefaultGarbageCollectionPolicy: batch/v1 keeps orphaning pods, for compatibility.
    orphansDependents: true,
    hooks: { prepareForCreate: generateJobSelector },
    rules: { create: rules.validateJob, update: rules.validateJobUpdate },
    subresourceRules: { status: statusUpdateRules(rules.validateJobStatusUpdate) },
    printer: printers.jobPrinter,
    fields: JOB_FIELDS,
  },
  "certificates.k8s.io/certificatesigningrequests": {
    hooks: CSR_STRATEGY,
    // kube's ValidateCertificateRequestName accepts any name a path can carry (kubelets use base64url hashes).
    name: nameIsPathSegment,
    rules: { create: rules.validateCertificateSigningRequest, update: rules.validateCertificateSigningRequestUpdate },
    printer: printers.certificateSigningRequestPrinter,
    fields: CERTIFICATE_SIGNING_REQUEST_FIELDS,
  },
  "coordination.k8s.io/leases": {
    allowCreateOnUpdate: true,
    conditionalUpdateOnly: true,
    rules: { create: rules.validateLease },
    printer: printers.leasePrinter,
  },
  "discovery.k8s.io/endpointslices": { allowCreateOnUpdate: true, printer: printers.endpointSlicePrinter },
  "events.k8s.io/events": {
    allowCreateOnUpdate: true,
    noWatchCache: true,
    // ValidateEventCreate checks a DNS-1123 subdomain name, ValidateEventUpdate only ValidateObjectMetaUpdate: core/v1
    // creates the same collection's Events under the path-segment rule (`UPPER:case`), and events.k8s.io updates them.
    nameRuleOnCreateOnly: true,
    rules: eventsV1Events,
    printer: printers.eventPrinter,
    fields: EVENTS_V1_FIELDS,
  },
  "flowcontrol.apiserver.k8s.io/flowschemas": {
    tracksGeneration: true,
    // flowSchemaStatusStrategy.PrepareForUpdate copies the stored ObjectMeta but managedFields.
    hooks: { statusKeepsMetadata: "all", statusResetMetadata: "all" },
    rules: { create: rules.validateFlowSchema, update: rules.flowControlUpdate(rules.validateFlowSchema) },
    printer: printers.flowSchemaPrinter,
  },
  "flowcontrol.apiserver.k8s.io/prioritylevelconfigurations": {
    tracksGeneration: true,
    // priorityLevelConfigurationStatusStrategy.PrepareForUpdate copies the stored ObjectMeta but managedFields.
    hooks: { statusKeepsMetadata: "all", statusResetMetadata: "all" },
    rules: {
      create: rules.validatePriorityLevelConfiguration,
      update: rules.flowControlUpdate(rules.validatePriorityLevelConfiguration),
    },
    printer: printers.priorityLevelConfigurationPrinter,
  },
  "networking.k8s.io/ingressclasses": { tracksGeneration: true, printer: printers.ingressClassPrinter },
  "networking.k8s.io/ingresses": { tracksGeneration: true, printer: printers.ingressPrinter },
  "networking.k8s.io/networkpolicies": { tracksGeneration: true, printer: printers.networkPolicyPrinter },
  "node.k8s.io/runtimeclasses": { conditionalUpdateOnly: true, printer: printers.runtimeClassPrinter },
  "policy/poddisruptionbudgets": {
    tracksGeneration: true,
    conditionalUpdateOnly: true,
    subresourceRules: { status: statusUpdateRules(rules.validatePodDisruptionBudgetStatusUpdate) },
    printer: printers.podDisruptionBudgetPrinter,
  },
  "policy/podsecuritypolicies": { tracksGeneration: true },
  "rbac.authorization.k8s.io/clusterrolebindings": {
    allowCreateOnUpdate: true,
    name: nameIsPathSegment,
    rules: { create: rules.validateClusterRoleBinding, update: withRoleRef(rules.validateClusterRoleBinding) },
    printer: printers.roleBindingPrinter,
  },
  "rbac.authorization.k8s.io/clusterroles": {
    allowCreateOnUpdate: true,
    name: nameIsPathSegment,
    rules: { create: rules.validateClusterRole },
  },
  "rbac.authorization.k8s.io/rolebindings": {
    allowCreateOnUpdate: true,
    name: nameIsPathSegment,
    rules: { create: rules.validateRoleBinding, update: withRoleRef(rules.validateRoleBinding) },
    printer: printers.roleBindingPrinter,
  },
  "rbac.authorization.k8s.io/roles": { allowCreateOnUpdate: true, name: nameIsPathSegment, rules: { create: rules.validateRole } },
  "scheduling.k8s.io/priorityclasses": {
    rules: { create: rules.validatePriorityClass, update: rules.validatePriorityClassUpdate },
    printer: printers.priorityClassPrinter,
  },
  "storage.k8s.io/csidrivers": { conditionalUpdateOnly: true, printer: printers.csiDriverPrinter },
  "storage.k8s.io/csinodes": { conditionalUpdateOnly: true, printer: printers.csiNodePrinter },
  "storage.k8s.io/csistoragecapacities": { conditionalUpdateOnly: true, printer: printers.csiStorageCapacityPrinter },
  "storage.k8s.io/storageclasses": {
    rules: { create: rules.validateStorageClass, update: rules.validateStorageClassUpdate },
    printer: printers.storageClassPrinter,
  },
  "storage.k8s.io/volumeattachments": {
    conditionalUpdateOnly: true,
    // volumeAttachmentStatusStrategy.PrepareForUpdate: metav1.ResetObjectMetaForStatus; GetResetFields: all of metadata.
    hooks: { statusKeepsMetadata: RESET_OBJECT_META_FOR_STATUS, statusResetMetadata: "all" },
    printer: printers.volumeAttachmentPrinter,
  },
};

/** The entry of `group`/`resource`; undefined for a resource kube 1.26 does not build in. */
export function kindFactsOf(group: string, resource: string): KindFacts | undefined {
  const key = `${group}/${resource}`;
  return Object.hasOwn(KIND_FACTS, key) ? KIND_FACTS[key] : undefined;
}
