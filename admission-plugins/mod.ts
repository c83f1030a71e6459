/**
 * The built-in admission plugins: kube's recommended order (plugin order in the flags does not matter), the set
 * on by default in kube-apiserver 1.26, and the catalog of literal import() calls so the binary bundles them.
 */
import type { AdmissionPluginSet } from "../core/admission/selection.ts";
import type { BuiltInAdmissionFactory } from "../core/admission/types.ts";
import type { Catalog } from "../plugins/loader.ts";
import { acceptedName } from "./_accepted.ts";

/** kube's AllOrderedPlugins (pkg/kubeapiserver/options/plugins.go). */
const ORDER = [
  "AlwaysAdmit", "NamespaceAutoProvision", "NamespaceLifecycle", "NamespaceExists", "SecurityContextDeny",
  "LimitPodHardAntiAffinityTopology", "LimitRanger", "ServiceAccount", "NodeRestriction", "TaintNodesByCondition",
  "AlwaysPullImages", "ImagePolicyWebhook", "PodSecurity", "PodNodeSelector", "Priority", "DefaultTolerationSeconds",
  "PodTolerationRestriction", "EventRateLimit", "ExtendedResourceToleration", "DefaultStorageClass",
  "StorageObjectInUseProtection", "OwnerReferencesPermissionEnforcement", "PersistentVolumeClaimResize", "RuntimeClass",
  "CertificateApproval", "CertificateSigning", "ClusterTrustBundleAttest", "CertificateSubjectRestriction",
  "DefaultIngressClass", "DenyServiceExternalIPs",
  // Webhooks, quota and deny go last; custom plugins run just before them.
  "MutatingAdmissionWebhook", "ValidatingAdmissionPolicy", "ValidatingAdmissionWebhook", "ResourceQuota", "AlwaysDeny",
] as const;

/** kube-apiserver 1.26's DefaultOffAdmissionPlugins complement: what runs without flags. */
const DEFAULTS = [
  "NamespaceLifecycle", "LimitRanger", "ServiceAccount", "TaintNodesByCondition", "PodSecurity", "Priority",
  "DefaultTolerationSeconds", "DefaultStorageClass", "StorageObjectInUseProtection", "PersistentVolumeClaimResize",
  "RuntimeClass", "CertificateApproval", "CertificateSigning", "ClusterTrustBundleAttest", "CertificateSubjectRestriction",
  "DefaultIngressClass", "MutatingAdmissionWebhook", "ValidatingAdmissionPolicy", "ValidatingAdmissionWebhook", "ResourceQuota",
];

export const ADMISSION_PLUGIN_SET: AdmissionPluginSet = {
  order: ORDER,
  defaults: DEFAULTS,
  last: ["MutatingAdmissionWebhook", "ValidatingAdmissionPolicy", "ValidatingAdmissionWebhook", "ResourceQuota", "AlwaysDeny"],
};

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
 * Accepted names without an implementation. Nothing to act on: AlwaysAdmit (admits all), NamespaceExists and
 * NamespaceAutoProvision (the namespace gate already refuses missing namespaces), ClusterTrustBundleAttest
 * (ClusterTrustBundles are alpha and off in 1.26), DefaultIngressClass (no ingress class objects defaulted yet).
 * Missing (accepted so kube command lines keep working): ValidatingAdmissionPolicy, AlwaysPullImages,
 * ImagePolicyWebhook, PodNodeSelector, PodTolerationRestriction, EventRateLimit, ExtendedResourceToleration, OwnerReferencesPermissionEnforcement, PersistentVolumeClaimResize,
 * LimitPodHardAntiAffinityTopology, DenyServiceExternalIPs.
 */
const ACCEPTED = ORDER.filter((name) => !(name in IMPLEMENTED));

export const ADMISSION_PLUGINS: Catalog<BuiltInAdmissionFactory> = {
  ...Object.fromEntries(ACCEPTED.map((name) => [name, acceptedName(name)])),
  ...IMPLEMENTED,
};
