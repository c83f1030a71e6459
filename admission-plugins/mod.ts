/**
 * The built-in admission plugins: kube's recommended order (plugin order in the flags does not matter), the set
 * on by default in kube-apiserver 1.26, the catalog of literal import() calls so the binary bundles them, and the
 * kube names kubun does not implement (never on by default; see core/admission/selection.ts).
 */
import type { AdmissionPluginSet } from "../core/admission/selection.ts";
import type { BuiltInAdmissionFactory } from "../core/admission/types.ts";
import type { Catalog } from "../plugins/loader.ts";
import { satisfiedElsewhere } from "./_accepted.ts";

/** kube's AllOrderedPlugins (pkg/kubeapiserver/options/plugins.go). */
const ORDER = [
  "AlwaysAdmit",
  "NamespaceAutoProvision",
  "NamespaceLifecycle",
  "NamespaceExists",
  "SecurityContextDeny",
  "LimitPodHardAntiAffinityTopology",
  "LimitRanger",
  "ServiceAccount",
  "NodeRestriction",
  "TaintNodesByCondition",
  "AlwaysPullImages",
  "ImagePolicyWebhook",
  "PodSecurity",
  "PodNodeSelector",
  "Priority",
  "DefaultTolerationSeconds",
  "PodTolerationRestriction",
  "EventRateLimit",
  "ExtendedResourceToleration",
  "PersistentVolumeLabel",
  "DefaultStorageClass",
  "StorageObjectInUseProtection",
  "OwnerReferencesPermissionEnforcement",
  "PersistentVolumeClaimResize",
  "RuntimeClass",
  "CertificateApproval",
  "CertificateSigning",
  "ClusterTrustBundleAttest",
  "CertificateSubjectRestriction",
  "DefaultIngressClass",
  "DenyServiceExternalIPs",
  // Webhooks, quota and deny go last; custom plugins run just before them.
  "MutatingAdmissionWebhook",
  "ValidatingAdmissionPolicy",
  "ValidatingAdmissionWebhook",
  "ResourceQuota",
  "AlwaysDeny",
] as const;

/** kube-apiserver 1.26's DefaultOffAdmissionPlugins complement: what runs without flags. */
const DEFAULTS = [
  "NamespaceLifecycle",
  "LimitRanger",
  "ServiceAccount",
  "TaintNodesByCondition",
  "PodSecurity",
  "Priority",
  "DefaultTolerationSeconds",
  "DefaultStorageClass",
  "StorageObjectInUseProtection",
  "PersistentVolumeClaimResize",
  "RuntimeClass",
  "CertificateApproval",
  "CertificateSigning",
  "ClusterTrustBundleAttest",
  "CertificateSubjectRestriction",
  "DefaultIngressClass",
  "MutatingAdmissionWebhook",
  "ValidatingAdmissionPolicy",
  "ValidatingAdmissionWebhook",
  "ResourceQuota",
];

type Entry = () => Promise<{ default: BuiltInAdmissionFactory }>;

const IMPLEMENTED: Record<string, Entry> = {
  NamespaceLifecycle: () => import("./namespace-lifecycle/mod.ts"),
  SecurityContextDeny: () => import("./security-context-deny/mod.ts"),
  LimitRanger: () => import("./limit-ranger/mod.ts"),
  ServiceAccount: () => import("./service-account/mod.ts"),
  NodeRestriction: () => import("./node-restriction/mod.ts"),
  TaintNodesByCondition: () => import("./taint-nodes-by-condition/mod.ts"),
  PodSecurity: () => import("./pod-security/mod.ts"),
  Priority: () => import("./priority/mod.ts"),
  DefaultTolerationSeconds: () => import("./default-toleration-seconds/mod.ts"),
  DefaultStorageClass: () => import("./default-storage-class/mod.ts"),
  StorageObjectInUseProtection: () => import("./storage-object-in-use-protection/mod.ts"),
  RuntimeClass: () => import("./runtime-class/mod.ts"),
  CertificateApproval: () => import("./certificate-approval/mod.ts"),
  CertificateSigning: () => import("./certificate-signing/mod.ts"),
  CertificateSubjectRestriction: () => import("./certificate-subject-restriction/mod.ts"),
  ResourceQuota: () => import("./resource-quota/mod.ts"),
  AlwaysDeny: () => import("./always-deny/mod.ts"),
  MutatingAdmissionWebhook: () => import("./mutating-webhook/mod.ts"),
  ValidatingAdmissionWebhook: () => import("./validating-webhook/mod.ts"),
};

/**
 * Names whose whole behaviour kubun has without a plugin: AlwaysAdmit admits everything, and NamespaceExists'
 * refusal of objects in a missing namespace is the generic store's namespace gate, which every write passes.
 */
const SATISFIED: Record<string, Entry> = {
  AlwaysAdmit: satisfiedElsewhere("AlwaysAdmit"),
  NamespaceExists: satisfiedElsewhere("NamespaceExists"),
};

export const ADMISSION_PLUGINS: Catalog<BuiltInAdmissionFactory> = { ...IMPLEMENTED, ...SATISFIED };

/**
 * kube 1.26 names with no implementation here (NamespaceAutoProvision, AlwaysPullImages, ImagePolicyWebhook,
 * PodNodeSelector, PodTolerationRestriction, EventRateLimit, ExtendedResourceToleration, PersistentVolumeLabel,
 * OwnerReferencesPermissionEnforcement, PersistentVolumeClaimResize, ClusterTrustBundleAttest, DefaultIngressClass,
 * DenyServiceExternalIPs, LimitPodHardAntiAffinityTopology, ValidatingAdmissionPolicy): never on by default,
 * refused at start-up when enabled unless accepted as no-ops by name.
 */
const UNIMPLEMENTED = ORDER.filter((name) => !(name in ADMISSION_PLUGINS));

export const ADMISSION_PLUGIN_SET: AdmissionPluginSet = {
  order: ORDER,
  defaults: DEFAULTS,
  last: ["MutatingAdmissionWebhook", "ValidatingAdmissionPolicy", "ValidatingAdmissionWebhook", "ResourceQuota", "AlwaysDeny"],
  unimplemented: UNIMPLEMENTED,
};
export { loadAdmissionPlugins } from "./load.ts";
