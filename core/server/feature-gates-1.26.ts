/**
 * kube-apiserver 1.26's feature gates: pkg/features/kube_features.go's defaultKubernetesFeatureGates, the generic
 * apiserver's (k8s.io/apiserver pkg/features), component-base's logging gates and featuregate's AllAlpha/AllBeta.
 * One row per gate, keyed by the gate's name (the string of its Go constant, which differs for two gates): stage,
 * default, and whether it is locked to that default.
 * - The generic apiserver's rows were compared one by one with a 1.26 copy of k8s.io/apiserver
 *   pkg/features/kube_features.go (AggregatedDiscoveryEndpoint and ValidatingAdmissionPolicy alpha, ServerSideApply
 *   locked "remove in 1.29") and all agree.
 * - AllAlpha and AllBeta: component-base featuregate's defaultFeatures ({false, Alpha} and {false, Beta}).
 * - The kube-specific rows: the source index holds no pkg/features/kube_features.go at a v1.26 tag, and the vendored
 *   copies checked (ceph-csi, kubeedge, fluid, cri-dockerd, aws-efs-csi-driver, microshift, provider-aws-test-infra)
 *   are 1.21 to 1.36. The rows come from a 1.26-cycle copy (with 1.25's stages), the 1.27 to 1.30 sources'
 *   "alpha/beta/GA: v1.x" history and kube's removal PRs, and were checked against the 1.26 feature-gates page
 *   (kubernetes/website@5c2b197, content/ja/.../feature-gates.md, a translation whose tables list 1.26's stages):
 *   - Every alpha and beta row of the page agrees, except WindowsHostNetwork, which the page says is off and every
 *     source since 1.26 has as {Default: true, Alpha}.
 *   - ComponentSLIs is alpha (it moved to component-base in 1.28); ConsistentHTTPGetHandlers is GA since 1.25 and
 *     unlocked until 1.30; NewVolumeManagerReconstruction is a gate only from 1.27 (its "alpha: v1.25" was
 *     SELinuxMountReadWriteOncePod's).
 *   - Gates marked "remove in 1.26" are absent where kube's removal merged for 1.26 (#112386, #112567, #112577,
 *     #112579, #112589, #112643) and present where it merged for 1.27 or later: the volume expansion gates, GA and
 *     unlocked (#113942), ControllerManagerLeaderMigration (#113534) and CSIStorageCapacity (#118018), locked.
 *   - LegacyServiceAccountTokenNoAutoGeneration and CSIMigrationvSphere went GA in 1.26 unlocked and were locked in
 *     1.27 (#120192: "GA at 1.26 (Lock at 1.27)"; "remove in 1.29" in the 1.28 source); the other gates that went
 *     GA in 1.26 were locked at graduation.
 */
export type Stage = "ALPHA" | "BETA" | "GA" | "DEPRECATED";

export interface GateSpec {
  stage: Stage;
  default: boolean;
  locked?: true;
}

const alpha = (enabled = false): GateSpec => ({ stage: "ALPHA", default: enabled });
const beta = (enabled = true): GateSpec => ({ stage: "BETA", default: enabled });
const ga = (): GateSpec => ({ stage: "GA", default: true });
const gaLocked = (): GateSpec => ({ stage: "GA", default: true, locked: true });

export const KUBE_1_26_FEATURE_GATES: Readonly<Record<string, GateSpec>> = {
  // featuregate's own: setting one sets every unset gate of that stage.
  AllAlpha: alpha(),
  AllBeta: beta(false),
  // k8s.io/apiserver pkg/features
  AggregatedDiscoveryEndpoint: alpha(),
  APIListChunking: beta(),
  APIPriorityAndFairness: beta(),
  APIResponseCompression: beta(),
  APIServerIdentity: beta(),
  APIServerTracing: alpha(),
  AdvancedAuditing: ga(),
  ValidatingAdmissionPolicy: alpha(),
  CustomResourceValidationExpressions: beta(),
  DryRun: gaLocked(),
  EfficientWatchResumption: gaLocked(),
  KMSv2: alpha(),
  OpenAPIEnums: beta(),
  OpenAPIV3: beta(),
  RemainingItemCount: beta(),
  RemoveSelfLink: gaLocked(),
  ServerSideApply: gaLocked(),
  ServerSideFieldValidation: beta(),
  StorageVersionAPI: alpha(),
  StorageVersionHash: beta(),
  WatchBookmark: gaLocked(),
  // k8s.io/component-base logs/api/v1
  ContextualLogging: alpha(),
  LoggingAlphaOptions: alpha(),
  LoggingBetaOptions: beta(),
  // pkg/features
  AnyVolumeDataSource: beta(),
  APISelfSubjectReview: alpha(),
  AppArmor: beta(),
  // The constant CPUCFSQuotaPeriod names this gate.
  CustomCPUCFSQuotaPeriod: alpha(),
  CPUManager: gaLocked(),
  CPUManagerPolicyAlphaOptions: alpha(),
  CPUManagerPolicyBetaOptions: beta(),
  CPUManagerPolicyOptions: beta(),
  CSIInlineVolume: gaLocked(),
  CSIMigration: gaLocked(),
  CSIMigrationAWS: gaLocked(),
  CSIMigrationAzureDisk: gaLocked(),
  CSIMigrationAzureFile: gaLocked(),
  CSIMigrationGCE: gaLocked(),
  CSIMigrationPortworx: beta(false),
  CSIMigrationRBD: alpha(),
  CSIMigrationvSphere: ga(),
  CSINodeExpandSecret: alpha(),
  CSIStorageCapacity: gaLocked(),
  CSIVolumeHealth: alpha(),
  ComponentSLIs: alpha(),
  ConsistentHTTPGetHandlers: ga(),
  ContainerCheckpoint: alpha(),
  ControllerManagerLeaderMigration: gaLocked(),
  CronJobTimeZone: beta(),
  CrossNamespaceVolumeDataSource: alpha(),
  DaemonSetUpdateSurge: gaLocked(),
  DelegateFSGroupToCSIDriver: gaLocked(),
  DevicePlugins: gaLocked(),
  DisableAcceleratorUsageMetrics: gaLocked(),
  DisableCloudProviders: alpha(),
  DisableKubeletCloudCredentialProviders: alpha(),
  DownwardAPIHugePages: beta(),
  DynamicResourceAllocation: alpha(),
  EndpointSliceTerminatingCondition: gaLocked(),
  EphemeralContainers: gaLocked(),
  EventedPLEG: alpha(),
  ExecProbeTimeout: ga(),
  ExpandCSIVolumes: ga(),
  ExpandInUsePersistentVolumes: ga(),
  ExpandPersistentVolumes: ga(),
  ExpandedDNSConfig: beta(),
  // The constant ExperimentalHostUserNamespaceDefaultingGate names this gate.
  ExperimentalHostUserNamespaceDefaulting: beta(false),
  GRPCContainerProbe: beta(),
  GracefulNodeShutdown: beta(),
  GracefulNodeShutdownBasedOnPodPriority: beta(),
  HPAContainerMetrics: alpha(),
  HPAScaleToZero: alpha(),
  HonorPVReclaimPolicy: alpha(),
  IdentifyPodOS: gaLocked(),
  InTreePluginAWSUnregister: alpha(),
  InTreePluginAzureDiskUnregister: alpha(),
  InTreePluginAzureFileUnregister: alpha(),
  InTreePluginGCEUnregister: alpha(),
  InTreePluginOpenStackUnregister: alpha(),
  InTreePluginPortworxUnregister: alpha(),
  InTreePluginRBDUnregister: alpha(),
  InTreePluginvSphereUnregister: alpha(),
  IPTablesOwnershipCleanup: alpha(),
  JobMutableNodeSchedulingDirectives: beta(),
  JobPodFailurePolicy: beta(),
  JobReadyPods: beta(),
  JobTrackingWithFinalizers: gaLocked(),
  KubeletCredentialProviders: gaLocked(),
  KubeletInUserNamespace: alpha(),
  KubeletPodResources: beta(),
  KubeletPodResourcesGetAllocatable: beta(),
  KubeletTracing: alpha(),
  LegacyServiceAccountTokenNoAutoGeneration: ga(),
  LegacyServiceAccountTokenTracking: alpha(),
  LocalStorageCapacityIsolation: gaLocked(),
  LocalStorageCapacityIsolationFSQuotaMonitoring: alpha(),
  LogarithmicScaleDown: beta(),
  MatchLabelKeysInPodTopologySpread: alpha(),
  MaxUnavailableStatefulSet: alpha(),
  MemoryManager: beta(),
  MemoryQoS: alpha(),
  MinDomainsInPodTopologySpread: beta(false),
  MinimizeIPTablesRestore: alpha(),
  MixedProtocolLBService: gaLocked(),
  MultiCIDRRangeAllocator: alpha(),
  NetworkPolicyEndPort: gaLocked(),
  NetworkPolicyStatus: alpha(),
  NodeInclusionPolicyInPodTopologySpread: beta(),
  NodeOutOfServiceVolumeDetach: beta(),
  NodeSwap: alpha(),
  PDBUnhealthyPodEvictionPolicy: alpha(),
  PodAndContainerStatsFromCRI: alpha(),
  PodDeletionCost: beta(),
  PodDisruptionConditions: beta(),
  PodHasNetworkCondition: alpha(),
  PodSchedulingReadiness: alpha(),
  PodSecurity: gaLocked(),
  ProbeTerminationGracePeriod: beta(),
  ProcMountType: alpha(),
  ProxyTerminatingEndpoints: beta(),
  QOSReserved: alpha(),
  ReadWriteOncePod: alpha(),
  RecoverVolumeExpansionFailure: alpha(),
  RetroactiveDefaultStorageClass: beta(),
  RotateKubeletServerCertificate: beta(),
  SELinuxMountReadWriteOncePod: alpha(),
  SeccompDefault: beta(),
  ServiceIPStaticSubrange: gaLocked(),
  ServiceInternalTrafficPolicy: gaLocked(),
  SizeMemoryBackedVolumes: beta(),
  StatefulSetAutoDeletePVC: alpha(),
  StatefulSetMinReadySeconds: gaLocked(),
  StatefulSetStartOrdinal: alpha(),
  TopologyAwareHints: beta(),
  TopologyManager: beta(),
  TopologyManagerPolicyAlphaOptions: alpha(),
  TopologyManagerPolicyBetaOptions: beta(false),
  TopologyManagerPolicyOptions: alpha(),
  UserNamespacesStatelessPodsSupport: alpha(),
  VolumeCapacityPriority: alpha(),
  WinDSR: alpha(),
  WinOverlay: beta(),
  WindowsHostNetwork: alpha(true),
  WindowsHostProcessContainers: gaLocked(),
};
