/**
 * Facts about the served resource types (spec 2.13) that the OpenAPI documents do not carry:
 * which group/versions and resources are served, and kube 1.26's short names, categories and storage versions.
 */

export interface ResourceFacts {
  shortNames?: string[];
  /** kube's `Categories()` of the resource's storage. */
  categories?: string[];
  /** "<group>/<version>/<Kind>" the objects are stored as, when not the served one. */
  storedAs?: string;
  /** Not persisted (reviews, bindings, component statuses): no storageVersionHash. */
  virtual?: true;
}

/** Served group/version ("v1" is the core group) → resource → facts. */
export const SERVED_RESOURCES: Record<string, Record<string, ResourceFacts>> = {
  v1: {
    bindings: { virtual: true },
    componentstatuses: { shortNames: ["cs"], virtual: true },
    configmaps: { shortNames: ["cm"] },
    endpoints: { shortNames: ["ep"] },
    events: { shortNames: ["ev"] },
    limitranges: { shortNames: ["limits"] },
    namespaces: { shortNames: ["ns"] },
    nodes: { shortNames: ["no"] },
    persistentvolumeclaims: { shortNames: ["pvc"] },
    persistentvolumes: { shortNames: ["pv"] },
    pods: { shortNames: ["po"], categories: ["all"] },
    podtemplates: {},
    replicationcontrollers: { shortNames: ["rc"], categories: ["all"] },
    resourcequotas: { shortNames: ["quota"] },
    secrets: {},
    serviceaccounts: { shortNames: ["sa"] },
    services: { shortNames: ["svc"], categories: ["all"] },
  },
  "admissionregistration.k8s.io/v1": {
    mutatingwebhookconfigurations: { categories: ["api-extensions"] },
    validatingwebhookconfigurations: { categories: ["api-extensions"] },
  },
  "apiextensions.k8s.io/v1": {
    customresourcedefinitions: { shortNames: ["crd", "crds"], categories: ["api-extensions"] },
  },
  "apiregistration.k8s.io/v1": {
    apiservices: { categories: ["api-extensions"] },
  },
  "apps/v1": {
    controllerrevisions: {},
    daemonsets: { shortNames: ["ds"], categories: ["all"] },
    deployments: { shortNames: ["deploy"], categories: ["all"] },
    replicasets: { shortNames: ["rs"], categories: ["all"] },
    statefulsets: { shortNames: ["sts"], categories: ["all"] },
  },
  "authentication.k8s.io/v1": {
    tokenreviews: { virtual: true },
  },
  "authorization.k8s.io/v1": {
    localsubjectaccessreviews: { virtual: true },
    selfsubjectaccessreviews: { virtual: true },
    selfsubjectrulesreviews: { virtual: true },
    subjectaccessreviews: { virtual: true },
  },
  "autoscaling/v1": {
    horizontalpodautoscalers: { shortNames: ["hpa"], categories: ["all"] },
  },
  "autoscaling/v2": {
    // 1.26 still stores HPAs as autoscaling/v1 (so older servers can read them).
    horizontalpodautoscalers: {
      shortNames: ["hpa"],
      categories: ["all"],
      storedAs: "autoscaling/v1/HorizontalPodAutoscaler",
    },
  },
  "batch/v1": {
    cronjobs: { shortNames: ["cj"], categories: ["all"] },
    jobs: { categories: ["all"] },
  },
  "certificates.k8s.io/v1": {
    certificatesigningrequests: { shortNames: ["csr"] },
  },
  "coordination.k8s.io/v1": {
    leases: {},
  },
  "discovery.k8s.io/v1": {
    endpointslices: {},
  },
  "events.k8s.io/v1": {
    // Shares storage with core events.
    events: { shortNames: ["ev"], storedAs: "/v1/Event" },
  },
  "flowcontrol.apiserver.k8s.io/v1beta2": {
    flowschemas: {},
    prioritylevelconfigurations: {},
  },
  "flowcontrol.apiserver.k8s.io/v1beta3": {
    // 1.26 serves v1beta3 (preferred) over the objects it stores as v1beta2.
    flowschemas: { storedAs: "flowcontrol.apiserver.k8s.io/v1beta2/FlowSchema" },
    prioritylevelconfigurations: { storedAs: "flowcontrol.apiserver.k8s.io/v1beta2/PriorityLevelConfiguration" },
  },
  "networking.k8s.io/v1": {
    ingressclasses: {},
    ingresses: { shortNames: ["ing"] },
    networkpolicies: { shortNames: ["netpol"] },
  },
  "node.k8s.io/v1": {
    runtimeclasses: {},
  },
  "policy/v1": {
    poddisruptionbudgets: { shortNames: ["pdb"] },
  },
  "rbac.authorization.k8s.io/v1": {
    clusterrolebindings: {},
    clusterroles: {},
    rolebindings: {},
    roles: {},
  },
  "scheduling.k8s.io/v1": {
    priorityclasses: { shortNames: ["pc"] },
  },
  "storage.k8s.io/v1": {
    csidrivers: {},
    csinodes: {},
    csistoragecapacities: {},
    storageclasses: { shortNames: ["sc"] },
    volumeattachments: {},
  },
};

/**
 * Types the 1.26 OpenAPI data lacks, described by hand: PodSecurityPolicy (removed upstream in 1.25, in the seed's
 * catalog) and TokenReview v1beta1 (spec 2.6 names both TokenReview versions; kube stopped serving v1beta1 in 1.22).
 * `stored: false` marks virtual types, which have no storage version hash.
 */
export const HAND_WRITTEN_TYPES = [
  {
    group: "policy",
    version: "v1beta1",
    resource: "podsecuritypolicies",
    kind: "PodSecurityPolicy",
    namespaced: false,
    shortNames: ["psp"],
    categories: [],
    verbs: ["create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"],
    // Its storage (pkg/registry/policy/podsecuritypolicy, kube 1.24) sets ReturnDeletedObject.
    deleteReturnsObject: true as const,
    stored: true,
  },
  {
    group: "authentication.k8s.io",
    version: "v1beta1",
    resource: "tokenreviews",
    kind: "TokenReview",
    namespaced: false,
    shortNames: [],
    categories: [],
    verbs: ["create"],
    stored: false,
  },
];
