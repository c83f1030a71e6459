/**
 * Where and how kube-apiserver 1.26 stores each built-in resource kubun stores, keyed by kubun's key segment
 * `<group or "core">/<resource>`.
 *
 * Prefixes: kube's generic Store (k8s.io/apiserver registry/generic/registry/store.go, CompleteWithOptions) keys
 * objects `<prefix>/<namespace>/<name>` (NamespaceKeyFunc) or `<prefix>/<name>` (NoNamespaceKeyFunc), where the
 * prefix is DefaultStorageFactory.ResourcePrefix: the lower-cased resource name of the group that owns the storage
 * (cohabiting resources share one), unless pkg/kubeapiserver/default_storage_factory_builder.go's
 * SpecialDefaultResourcePrefixes names another. The apiextensions and aggregator servers use
 * SimpleRestOptionsFactory, whose prefix is `<group>/<resource>`, as do custom resources.
 *
 * Versions: kube stores each resource in its storage version (DefaultResourceEncodingConfig, the group's preferred
 * version unless overridden); discovery's storageVersionHash is the hash of that group/version/kind, which the
 * tests check against the catalog. CustomResourceDefinitions and APIServices go through their servers'
 * LegacyCodec, a JSON codec, whatever --storage-media-type says.
 */

export interface KubeStoredResource {
  /** kube's resource prefix below --etcd-prefix, without leading or trailing slash. */
  prefix: string;
  /** The apiVersion and kind the value is written in. */
  apiVersion: string;
  kind: string;
  /** Written as JSON whatever the media type (the apiextensions and aggregator servers' LegacyCodec; no 1.26 message). */
  alwaysJson?: true;
}

const stored = (prefix: string, apiVersion: string, kind: string): KubeStoredResource => ({ prefix, apiVersion, kind });

export const KUBE_STORED_RESOURCES: Readonly<Record<string, KubeStoredResource>> = {
  "core/configmaps": stored("configmaps", "v1", "ConfigMap"),
  "core/endpoints": stored("services/endpoints", "v1", "Endpoints"),
  "core/events": stored("events", "v1", "Event"),
  "core/limitranges": stored("limitranges", "v1", "LimitRange"),
  "core/namespaces": stored("namespaces", "v1", "Namespace"),
  "core/nodes": stored("minions", "v1", "Node"),
  "core/persistentvolumeclaims": stored("persistentvolumeclaims", "v1", "PersistentVolumeClaim"),
  "core/persistentvolumes": stored("persistentvolumes", "v1", "PersistentVolume"),
  "core/pods": stored("pods", "v1", "Pod"),
  "core/podtemplates": stored("podtemplates", "v1", "PodTemplate"),
  "core/replicationcontrollers": stored("controllers", "v1", "ReplicationController"),
  "core/resourcequotas": stored("resourcequotas", "v1", "ResourceQuota"),
  "core/secrets": stored("secrets", "v1", "Secret"),
  "core/serviceaccounts": stored("serviceaccounts", "v1", "ServiceAccount"),
  "core/services": stored("services/specs", "v1", "Service"),
  "admissionregistration.k8s.io/mutatingwebhookconfigurations": stored(
    "mutatingwebhookconfigurations",
    "admissionregistration.k8s.io/v1",
    "MutatingWebhookConfiguration",
  ),
  "admissionregistration.k8s.io/validatingwebhookconfigurations": stored(
    "validatingwebhookconfigurations",
    "admissionregistration.k8s.io/v1",
    "ValidatingWebhookConfiguration",
  ),
  // kube stores CRDs as v1beta1 JSON (EncodeVersioner, "until issue 82292 is resolved") and reads v1 JSON as well.
  "apiextensions.k8s.io/customresourcedefinitions": {
    prefix: "apiextensions.k8s.io/customresourcedefinitions",
    apiVersion: "apiextensions.k8s.io/v1beta1",
    kind: "CustomResourceDefinition",
    alwaysJson: true,
  },
  "apiregistration.k8s.io/apiservices": {
    prefix: "apiregistration.k8s.io/apiservices",
    apiVersion: "apiregistration.k8s.io/v1",
    kind: "APIService",
    alwaysJson: true,
  },
  "apps/controllerrevisions": stored("controllerrevisions", "apps/v1", "ControllerRevision"),
  "apps/daemonsets": stored("daemonsets", "apps/v1", "DaemonSet"),
  "apps/deployments": stored("deployments", "apps/v1", "Deployment"),
  "apps/replicasets": stored("replicasets", "apps/v1", "ReplicaSet"),
  "apps/statefulsets": stored("statefulsets", "apps/v1", "StatefulSet"),
  // 1.26 stores autoscalers in autoscaling/v1 (v2's extra fields ride in its round-trip annotations).
  "autoscaling/horizontalpodautoscalers": stored("horizontalpodautoscalers", "autoscaling/v1", "HorizontalPodAutoscaler"),
  "batch/cronjobs": stored("cronjobs", "batch/v1", "CronJob"),
  "batch/jobs": stored("jobs", "batch/v1", "Job"),
  "certificates.k8s.io/certificatesigningrequests": stored(
    "certificatesigningrequests",
    "certificates.k8s.io/v1",
    "CertificateSigningRequest",
  ),
  "coordination.k8s.io/leases": stored("leases", "coordination.k8s.io/v1", "Lease"),
  "discovery.k8s.io/endpointslices": stored("endpointslices", "discovery.k8s.io/v1", "EndpointSlice"),
  "flowcontrol.apiserver.k8s.io/flowschemas": stored("flowschemas", "flowcontrol.apiserver.k8s.io/v1beta2", "FlowSchema"),
  "flowcontrol.apiserver.k8s.io/prioritylevelconfigurations": stored(
    "prioritylevelconfigurations",
    "flowcontrol.apiserver.k8s.io/v1beta2",
    "PriorityLevelConfiguration",
  ),
  "networking.k8s.io/ingressclasses": stored("ingressclasses", "networking.k8s.io/v1", "IngressClass"),
  "networking.k8s.io/ingresses": stored("ingress", "networking.k8s.io/v1", "Ingress"),
  "networking.k8s.io/networkpolicies": stored("networkpolicies", "networking.k8s.io/v1", "NetworkPolicy"),
  "node.k8s.io/runtimeclasses": stored("runtimeclasses", "node.k8s.io/v1", "RuntimeClass"),
  "policy/poddisruptionbudgets": stored("poddisruptionbudgets", "policy/v1", "PodDisruptionBudget"),
  // kube removed PodSecurityPolicy in 1.25, so 1.26 has no protobuf message for it: kubun writes JSON under the
  // prefix kube had (SpecialDefaultResourcePrefixes still names it).
  "policy/podsecuritypolicies": {
    prefix: "podsecuritypolicy",
    apiVersion: "policy/v1beta1",
    kind: "PodSecurityPolicy",
    alwaysJson: true,
  },
  "rbac.authorization.k8s.io/clusterrolebindings": stored("clusterrolebindings", "rbac.authorization.k8s.io/v1", "ClusterRoleBinding"),
  "rbac.authorization.k8s.io/clusterroles": stored("clusterroles", "rbac.authorization.k8s.io/v1", "ClusterRole"),
  "rbac.authorization.k8s.io/rolebindings": stored("rolebindings", "rbac.authorization.k8s.io/v1", "RoleBinding"),
  "rbac.authorization.k8s.io/roles": stored("roles", "rbac.authorization.k8s.io/v1", "Role"),
  "scheduling.k8s.io/priorityclasses": stored("priorityclasses", "scheduling.k8s.io/v1", "PriorityClass"),
  "storage.k8s.io/csidrivers": stored("csidrivers", "storage.k8s.io/v1", "CSIDriver"),
  "storage.k8s.io/csinodes": stored("csinodes", "storage.k8s.io/v1", "CSINode"),
  "storage.k8s.io/csistoragecapacities": stored("csistoragecapacities", "storage.k8s.io/v1", "CSIStorageCapacity"),
  "storage.k8s.io/storageclasses": stored("storageclasses", "storage.k8s.io/v1", "StorageClass"),
  "storage.k8s.io/volumeattachments": stored("volumeattachments", "storage.k8s.io/v1", "VolumeAttachment"),
};

/**
 * kube's Service IP and node port allocators keep one v1 RangeAllocation each, outside any API resource, at
 * `/ranges/serviceips` and `/ranges/servicenodeports` (pkg/registry/core/rest storage_core.go: serviceallocator.NewEtcd
 * with the services' storage config, so in its media type); kubun's registry keeps them under `/_ranges/`.
 */
export const RANGE_ALLOCATIONS = {
  kubunPrefix: "/_ranges/",
  backendPrefix: "/ranges/",
  stored: { prefix: "ranges", apiVersion: "v1", kind: "RangeAllocation" } satisfies KubeStoredResource,
} as const;
