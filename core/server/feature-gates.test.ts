import { expect, test } from "bun:test";
import { FEATURE_GATES_USAGE, featureEnabled, featureGateWarnings, parseFeatureGates } from "./feature-gates.ts";
import { type GateSpec, KUBE_1_26_FEATURE_GATES } from "./feature-gates-1.26.ts";

test("featureGate.Set: pairs are read with strconv.ParseBool, empty items skipped, the last of a name wins", () => {
  expect(parseFeatureGates("APIServerTracing=true,,OpenAPIV3=0, APIServerTracing = false")).toEqual({
    APIServerTracing: false,
    OpenAPIV3: false,
  });
});

test("featureGate.Set: kube's errors for a missing value, a bad bool, an unknown gate and a locked gate", () => {
  expect(() => parseFeatureGates("OpenAPIV3")).toThrow("missing bool value for OpenAPIV3");
  expect(() => parseFeatureGates("OpenAPIV3=yes")).toThrow(
    'invalid value of OpenAPIV3=yes, err: strconv.ParseBool: parsing "yes": invalid syntax',
  );
  expect(() => parseFeatureGates("NoSuchGate=true")).toThrow("unrecognized feature gate: NoSuchGate");
  expect(() => parseFeatureGates("ServerSideApply=false")).toThrow(
    "cannot set feature gate ServerSideApply to false, feature is locked to true",
  );
  expect(() => parseFeatureGates("toString=true")).toThrow("unrecognized feature gate: toString");
});

test("SetFromMap: a GA gate set to its default is allowed with kube's warning; alpha and beta gates are silent", () => {
  const settings = parseFeatureGates("ServerSideApply=true,AdvancedAuditing=false,KMSv2=true");
  expect(featureGateWarnings(settings)).toEqual([
    "Setting GA feature gate ServerSideApply=true. It will be removed in a future release.",
    "Setting GA feature gate AdvancedAuditing=false. It will be removed in a future release.",
  ]);
});

test("featureGate.Enabled: the setting, else AllAlpha/AllBeta for unset gates of their stage, else the 1.26 default", () => {
  expect(featureEnabled({}, "APIResponseCompression")).toBe(true);
  expect(featureEnabled({}, "APIServerTracing")).toBe(false);
  expect(featureEnabled({ APIResponseCompression: false }, "APIResponseCompression")).toBe(false);
  expect(featureEnabled({ AllAlpha: true }, "APIServerTracing")).toBe(true);
  expect(featureEnabled({ AllAlpha: true, APIServerTracing: false }, "APIServerTracing")).toBe(false);
  expect(featureEnabled({ AllBeta: false }, "APIPriorityAndFairness")).toBe(false);
  expect(featureEnabled({ AllBeta: false }, "DryRun")).toBe(true);
});

test("kube-apiserver 1.26's stages of the gates kubun switches", () => {
  expect(KUBE_1_26_FEATURE_GATES.ServerSideFieldValidation).toEqual({ stage: "BETA", default: true });
  expect(KUBE_1_26_FEATURE_GATES.APIServerIdentity).toEqual({ stage: "BETA", default: true });
  expect(KUBE_1_26_FEATURE_GATES.LegacyServiceAccountTokenNoAutoGeneration).toEqual({ stage: "GA", default: true });
});

test("k8s.io/apiserver 1.26's own gates, row by row (its pkg/features/kube_features.go defaultKubernetesFeatureGates)", () => {
  const generic: Record<string, GateSpec> = {
    AggregatedDiscoveryEndpoint: { stage: "ALPHA", default: false },
    APIListChunking: { stage: "BETA", default: true },
    APIPriorityAndFairness: { stage: "BETA", default: true },
    APIResponseCompression: { stage: "BETA", default: true },
    APIServerIdentity: { stage: "BETA", default: true },
    APIServerTracing: { stage: "ALPHA", default: false },
    AdvancedAuditing: { stage: "GA", default: true },
    ValidatingAdmissionPolicy: { stage: "ALPHA", default: false },
    CustomResourceValidationExpressions: { stage: "BETA", default: true },
    DryRun: { stage: "GA", default: true, locked: true },
    EfficientWatchResumption: { stage: "GA", default: true, locked: true },
    KMSv2: { stage: "ALPHA", default: false },
    OpenAPIEnums: { stage: "BETA", default: true },
    OpenAPIV3: { stage: "BETA", default: true },
    RemainingItemCount: { stage: "BETA", default: true },
    RemoveSelfLink: { stage: "GA", default: true, locked: true },
    ServerSideApply: { stage: "GA", default: true, locked: true },
    ServerSideFieldValidation: { stage: "BETA", default: true },
    StorageVersionAPI: { stage: "ALPHA", default: false },
    StorageVersionHash: { stage: "BETA", default: true },
    WatchBookmark: { stage: "GA", default: true, locked: true },
  };
  for (const [name, spec] of Object.entries(generic)) expect([name, KUBE_1_26_FEATURE_GATES[name]]).toEqual([name, spec]);
});

test("gates are known by their names, not their Go constants (CPUCFSQuotaPeriod is CustomCPUCFSQuotaPeriod)", () => {
  expect(parseFeatureGates("CustomCPUCFSQuotaPeriod=true,ExperimentalHostUserNamespaceDefaulting=true")).toEqual({
    CustomCPUCFSQuotaPeriod: true,
    ExperimentalHostUserNamespaceDefaulting: true,
  });
  expect(() => parseFeatureGates("CPUCFSQuotaPeriod=true")).toThrow("unrecognized feature gate: CPUCFSQuotaPeriod");
  expect(() => parseFeatureGates("ExperimentalHostUserNamespaceDefaultingGate=true")).toThrow(
    "unrecognized feature gate: ExperimentalHostUserNamespaceDefaultingGate",
  );
});

test("featuregate's own AllBeta is a beta gate that defaults to false (defaultFeatures), as --help lists it", () => {
  expect(KUBE_1_26_FEATURE_GATES.AllBeta).toEqual({ stage: "BETA", default: false });
  expect(FEATURE_GATES_USAGE).toContain("\nAllBeta=true|false (BETA - default=false)\n");
  expect(FEATURE_GATES_USAGE).toContain("\nAllAlpha=true|false (ALPHA - default=false)\n");
});

test("kube-specific rows that 1.26 changed or that differ from 1.25 and 1.27, against the 1.26 feature-gates page", () => {
  const rows: Record<string, GateSpec | undefined> = {
    // New in 1.26, alpha.
    ComponentSLIs: { stage: "ALPHA", default: false },
    DynamicResourceAllocation: { stage: "ALPHA", default: false },
    PodSchedulingReadiness: { stage: "ALPHA", default: false },
    APISelfSubjectReview: { stage: "ALPHA", default: false },
    // Alpha by default on since 1.26 (kube_features.go, every release since; the page says false).
    WindowsHostNetwork: { stage: "ALPHA", default: true },
    // Beta in 1.26.
    PodDisruptionConditions: { stage: "BETA", default: true },
    NodeOutOfServiceVolumeDetach: { stage: "BETA", default: true },
    ProxyTerminatingEndpoints: { stage: "BETA", default: true },
    TopologyManagerPolicyBetaOptions: { stage: "BETA", default: false },
    // Beta but off until 1.27.
    MinDomainsInPodTopologySpread: { stage: "BETA", default: false },
    // GA in 1.26 and locked; GA in 1.26 but locked only in 1.27; GA since 1.25 and not locked before 1.30.
    CSIMigrationAzureFile: { stage: "GA", default: true, locked: true },
    LegacyServiceAccountTokenNoAutoGeneration: { stage: "GA", default: true },
    CSIMigrationvSphere: { stage: "GA", default: true },
    ConsistentHTTPGetHandlers: { stage: "GA", default: true },
    // GA since 1.24 and marked "remove in 1.26", but removed only in 1.27 and 1.28.
    ExpandPersistentVolumes: { stage: "GA", default: true },
    ControllerManagerLeaderMigration: { stage: "GA", default: true, locked: true },
    CSIStorageCapacity: { stage: "GA", default: true, locked: true },
    // Removed in 1.26; a gate only from 1.27.
    IndexedJob: undefined,
    PodOverhead: undefined,
    NewVolumeManagerReconstruction: undefined,
  };
  for (const [name, spec] of Object.entries(rows)) {
    expect<[string, GateSpec | undefined]>([name, KUBE_1_26_FEATURE_GATES[name]]).toEqual([name, spec]);
  }
});

test("SetFromMap: an unlocked GA gate may be turned off, with kube's warning", () => {
  const settings = parseFeatureGates("ConsistentHTTPGetHandlers=false");
  expect(featureEnabled(settings, "ConsistentHTTPGetHandlers")).toBe(false);
  expect(featureGateWarnings(settings)).toEqual([
    "Setting GA feature gate ConsistentHTTPGetHandlers=false. It will be removed in a future release.",
  ]);
});
