/**
 * Go pointer scalars whose explicit zero differs from unset (`replicas: 0`, `runAsUser: 0`, `storageClassName: ""`).
 * Protobuf cannot tell them from omitempty scalars, whose zero kube's JSON drops, so the codec keeps a zero only
 * for these. generated.proto cannot supply them: gogo writes `optional` for value and pointer scalars alike.
 * Facts from k8s.io/api 1.26 types.go (with apimachinery's meta/v1, apiextensions-apiserver's and
 * kube-aggregator's v1): every `*bool`, `*int32`, `*int64`, `*float64`, `*string` and pointer to a named string
 * type (`*PersistentVolumeMode`, `*IPFamilyPolicy`...) among the messages kubun serves, per message.
 */
const API = "k8s.io.api";
const META = "k8s.io.apimachinery.pkg.apis.meta.v1";
const EXTENSIONS = "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1";
const AGGREGATOR = "k8s.io.kube_aggregator.pkg.apis.apiregistration.v1";

const WEBHOOK = ["failurePolicy", "matchPolicy", "sideEffects", "timeoutSeconds"];
const SERVICE_REFERENCE = ["path", "port"];
const SECURITY_IDS = ["runAsUser", "runAsGroup", "runAsNonRoot"];
const OPTIONAL_REFERENCE = ["optional"];
const PRIORITY_LEVEL_BORROWING = ["lendablePercent", "borrowingLimitPercent"];

const POINTER_FIELDS_BY_MESSAGE: Record<string, readonly string[]> = {
  [`${API}.admissionregistration.v1.MutatingWebhook`]: [...WEBHOOK, "reinvocationPolicy"],
  [`${API}.admissionregistration.v1.ValidatingWebhook`]: WEBHOOK,
  [`${API}.admissionregistration.v1.Rule`]: ["scope"],
  [`${API}.admissionregistration.v1.ServiceReference`]: SERVICE_REFERENCE,
  [`${API}.admissionregistration.v1.WebhookClientConfig`]: ["url"],

  [`${API}.apps.v1.DaemonSetSpec`]: ["revisionHistoryLimit"],
  [`${API}.apps.v1.DaemonSetStatus`]: ["collisionCount"],
  [`${API}.apps.v1.DeploymentSpec`]: ["replicas", "revisionHistoryLimit", "progressDeadlineSeconds"],
  [`${API}.apps.v1.DeploymentStatus`]: ["collisionCount"],
  [`${API}.apps.v1.ReplicaSetSpec`]: ["replicas"],
  [`${API}.apps.v1.RollingUpdateStatefulSetStrategy`]: ["partition"],
  [`${API}.apps.v1.StatefulSetSpec`]: ["replicas", "revisionHistoryLimit"],
  [`${API}.apps.v1.StatefulSetStatus`]: ["collisionCount"],

  [`${API}.authentication.v1.TokenRequestSpec`]: ["expirationSeconds"],

  [`${API}.autoscaling.v1.HorizontalPodAutoscalerSpec`]: ["minReplicas", "targetCPUUtilizationPercentage"],
  [`${API}.autoscaling.v1.HorizontalPodAutoscalerStatus`]: ["observedGeneration", "currentCPUUtilizationPercentage"],
  [`${API}.autoscaling.v2.HPAScalingRules`]: ["stabilizationWindowSeconds", "selectPolicy"],
  [`${API}.autoscaling.v2.HorizontalPodAutoscalerSpec`]: ["minReplicas"],
  [`${API}.autoscaling.v2.HorizontalPodAutoscalerStatus`]: ["observedGeneration"],
  [`${API}.autoscaling.v2.MetricTarget`]: ["averageUtilization"],
  [`${API}.autoscaling.v2.MetricValueStatus`]: ["averageUtilization"],

  [`${API}.batch.v1.CronJobSpec`]: [
    "timeZone",
    "startingDeadlineSeconds",
    "suspend",
    "successfulJobsHistoryLimit",
    "failedJobsHistoryLimit",
  ],
  [`${API}.batch.v1.JobSpec`]: [
    "parallelism",
    "completions",
    "activeDeadlineSeconds",
    "backoffLimit",
    "manualSelector",
    "ttlSecondsAfterFinished",
    "completionMode",
    "suspend",
  ],
  [`${API}.batch.v1.JobStatus`]: ["ready"],
  [`${API}.batch.v1.PodFailurePolicyOnExitCodesRequirement`]: ["containerName"],

  [`${API}.certificates.v1.CertificateSigningRequestSpec`]: ["expirationSeconds"],

  [`${API}.coordination.v1.LeaseSpec`]: ["holderIdentity", "leaseDurationSeconds", "leaseTransitions"],

  [`${API}.core.v1.AzureDiskVolumeSource`]: ["cachingMode", "fsType", "readOnly", "kind"],
  [`${API}.core.v1.AzureFilePersistentVolumeSource`]: ["secretNamespace"],
  [`${API}.core.v1.CSIVolumeSource`]: ["readOnly", "fsType"],
  [`${API}.core.v1.ClaimSource`]: ["resourceClaimName", "resourceClaimTemplateName"],
  [`${API}.core.v1.ClientIPConfig`]: ["timeoutSeconds"],
  [`${API}.core.v1.ConfigMap`]: ["immutable"],
  [`${API}.core.v1.ConfigMapEnvSource`]: OPTIONAL_REFERENCE,
  [`${API}.core.v1.ConfigMapKeySelector`]: OPTIONAL_REFERENCE,
  [`${API}.core.v1.ConfigMapProjection`]: OPTIONAL_REFERENCE,
  [`${API}.core.v1.ConfigMapVolumeSource`]: ["defaultMode", "optional"],
  [`${API}.core.v1.ContainerStatus`]: ["started"],
  [`${API}.core.v1.DownwardAPIVolumeFile`]: ["mode"],
  [`${API}.core.v1.DownwardAPIVolumeSource`]: ["defaultMode"],
  [`${API}.core.v1.EndpointAddress`]: ["nodeName"],
  [`${API}.core.v1.EndpointPort`]: ["appProtocol"],
  [`${API}.core.v1.FCVolumeSource`]: ["lun"],
  [`${API}.core.v1.GRPCAction`]: ["service"],
  [`${API}.core.v1.GlusterfsPersistentVolumeSource`]: ["endpointsNamespace"],
  [`${API}.core.v1.HostPathVolumeSource`]: ["type"],
  [`${API}.core.v1.ISCSIPersistentVolumeSource`]: ["initiatorName"],
  [`${API}.core.v1.ISCSIVolumeSource`]: ["initiatorName"],
  [`${API}.core.v1.KeyToPath`]: ["mode"],
  [`${API}.core.v1.LocalVolumeSource`]: ["fsType"],
  [`${API}.core.v1.PersistentVolumeClaimSpec`]: ["storageClassName", "volumeMode"],
  [`${API}.core.v1.PersistentVolumeClaimStatus`]: ["resizeStatus"],
  [`${API}.core.v1.PersistentVolumeSpec`]: ["volumeMode"],
  [`${API}.core.v1.PodDNSConfigOption`]: ["value"],
  [`${API}.core.v1.PodSecurityContext`]: [...SECURITY_IDS, "fsGroup", "fsGroupChangePolicy"],
  [`${API}.core.v1.PodSpec`]: [
    "terminationGracePeriodSeconds",
    "activeDeadlineSeconds",
    "automountServiceAccountToken",
    "shareProcessNamespace",
    "priority",
    "runtimeClassName",
    "enableServiceLinks",
    "preemptionPolicy",
    "setHostnameAsFQDN",
    "hostUsers",
  ],
  [`${API}.core.v1.PortStatus`]: ["error"],
  [`${API}.core.v1.Probe`]: ["terminationGracePeriodSeconds"],
  [`${API}.core.v1.ProjectedVolumeSource`]: ["defaultMode"],
  [`${API}.core.v1.ReplicationControllerSpec`]: ["replicas"],
  [`${API}.core.v1.SeccompProfile`]: ["localhostProfile"],
  [`${API}.core.v1.Secret`]: ["immutable"],
  [`${API}.core.v1.SecretEnvSource`]: OPTIONAL_REFERENCE,
  [`${API}.core.v1.SecretKeySelector`]: OPTIONAL_REFERENCE,
  [`${API}.core.v1.SecretProjection`]: OPTIONAL_REFERENCE,
  [`${API}.core.v1.SecretVolumeSource`]: ["defaultMode", "optional"],
  [`${API}.core.v1.SecurityContext`]: [
    "privileged",
    ...SECURITY_IDS,
    "readOnlyRootFilesystem",
    "allowPrivilegeEscalation",
    "procMount",
  ],
  [`${API}.core.v1.ServiceAccount`]: ["automountServiceAccountToken"],
  [`${API}.core.v1.ServiceAccountTokenProjection`]: ["expirationSeconds"],
  [`${API}.core.v1.ServicePort`]: ["appProtocol"],
  [`${API}.core.v1.ServiceSpec`]: [
    "ipFamilyPolicy",
    "allocateLoadBalancerNodePorts",
    "loadBalancerClass",
    "internalTrafficPolicy",
  ],
  [`${API}.core.v1.Toleration`]: ["tolerationSeconds"],
  [`${API}.core.v1.TopologySpreadConstraint`]: ["minDomains", "nodeAffinityPolicy", "nodeTaintsPolicy"],
  [`${API}.core.v1.TypedLocalObjectReference`]: ["apiGroup"],
  [`${API}.core.v1.TypedObjectReference`]: ["apiGroup", "namespace"],
  [`${API}.core.v1.VolumeMount`]: ["mountPropagation"],
  [`${API}.core.v1.WindowsSecurityContextOptions`]: [
    "gmsaCredentialSpecName",
    "gmsaCredentialSpec",
    "runAsUserName",
    "hostProcess",
  ],

  [`${API}.discovery.v1.Endpoint`]: ["hostname", "nodeName", "zone"],
  [`${API}.discovery.v1.EndpointConditions`]: ["ready", "serving", "terminating"],
  [`${API}.discovery.v1.EndpointPort`]: ["name", "protocol", "port", "appProtocol"],

  [`${API}.flowcontrol.v1beta2.LimitedPriorityLevelConfiguration`]: PRIORITY_LEVEL_BORROWING,
  [`${API}.flowcontrol.v1beta3.LimitedPriorityLevelConfiguration`]: PRIORITY_LEVEL_BORROWING,

  [`${API}.networking.v1.HTTPIngressPath`]: ["pathType"],
  [`${API}.networking.v1.IngressClassParametersReference`]: ["aPIGroup", "scope", "namespace"],
  [`${API}.networking.v1.IngressPortStatus`]: ["error"],
  [`${API}.networking.v1.IngressSpec`]: ["ingressClassName"],
  [`${API}.networking.v1.NetworkPolicyPort`]: ["protocol", "endPort"],

  [`${API}.policy.v1.PodDisruptionBudgetSpec`]: ["unhealthyPodEvictionPolicy"],

  [`${API}.scheduling.v1.PriorityClass`]: ["preemptionPolicy"],

  [`${API}.storage.v1.CSIDriverSpec`]: [
    "attachRequired",
    "podInfoOnMount",
    "storageCapacity",
    "fsGroupPolicy",
    "requiresRepublish",
    "seLinuxMount",
  ],
  [`${API}.storage.v1.StorageClass`]: ["reclaimPolicy", "allowVolumeExpansion", "volumeBindingMode"],
  [`${API}.storage.v1.TokenRequest`]: ["expirationSeconds"],
  [`${API}.storage.v1.VolumeAttachmentSource`]: ["persistentVolumeName"],
  [`${API}.storage.v1.VolumeNodeResources`]: ["count"],

  [`${EXTENSIONS}.CustomResourceDefinitionVersion`]: ["deprecationWarning"],
  [`${EXTENSIONS}.CustomResourceSubresourceScale`]: ["labelSelectorPath"],
  [`${EXTENSIONS}.JSONSchemaProps`]: [
    "maximum",
    "minimum",
    "maxLength",
    "minLength",
    "maxItems",
    "minItems",
    "multipleOf",
    "maxProperties",
    "minProperties",
    "xKubernetesPreserveUnknownFields",
    "xKubernetesListType",
    "xKubernetesMapType",
  ],
  [`${EXTENSIONS}.ServiceReference`]: SERVICE_REFERENCE,
  [`${EXTENSIONS}.WebhookClientConfig`]: ["url"],

  [`${META}.DeleteOptions`]: ["gracePeriodSeconds", "orphanDependents", "propagationPolicy"],
  [`${META}.ListMeta`]: ["remainingItemCount"],
  [`${META}.ObjectMeta`]: ["deletionGracePeriodSeconds"],
  [`${META}.OwnerReference`]: ["controller", "blockOwnerDeletion"],
  [`${META}.Preconditions`]: ["uid", "resourceVersion"],

  [`${AGGREGATOR}.ServiceReference`]: ["port"],
};

/** `message.field` for every pointer scalar above. */
export const POINTER_SCALARS_WITH_MEANINGFUL_ZERO: ReadonlySet<string> = new Set(
  Object.entries(POINTER_FIELDS_BY_MESSAGE).flatMap(([message, fields]) => fields.map((field) => `${message}.${field}`)),
);
