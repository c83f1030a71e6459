/**
 * kube's well-known signer names (k8s.io/api/certificates/v1) and the subject rules of the kubelet signers
 * (pkg/apis/certificates/helpers.go ValidateKubeletClientCSR / ValidateKubeletServingCSR), shared by the signing
 * and approving controllers.
 */
import type { ParsedCSR } from "./csr.ts";

export const KUBE_APISERVER_CLIENT_SIGNER = "kubernetes.io/kube-apiserver-client";
export const KUBELET_CLIENT_SIGNER = "kubernetes.io/kube-apiserver-client-kubelet";
export const KUBELET_SERVING_SIGNER = "kubernetes.io/kubelet-serving";
export const LEGACY_UNKNOWN_SIGNER = "kubernetes.io/legacy-unknown";

const NODE_PREFIX = "system:node:";
const NODES_GROUP = "system:nodes";

function sameSet(usages: readonly string[], expected: readonly string[]): boolean {
  const set = new Set(usages);
  return set.size === expected.length && expected.every((u) => set.has(u));
}

/** Go's sets.String.List(): sorted. */
function usagesMismatch(expected: readonly string[]): string {
  return `usages did not match [${[...expected].sort().join(" ")}]`;
}

const KUBELET_CLIENT_USAGES = ["digital signature", "key encipherment", "client auth"];
const KUBELET_CLIENT_USAGES_NO_RSA = ["digital signature", "client auth"];
const KUBELET_SERVING_USAGES = ["digital signature", "key encipherment", "server auth"];
const KUBELET_SERVING_USAGES_NO_RSA = ["digital signature", "server auth"];

function organizationIsNodes(csr: ParsedCSR): boolean {
  return csr.organizations.length === 1 && csr.organizations[0] === NODES_GROUP;
}

/** ValidateKubeletClientCSR: the error text, or undefined when the request is a kubelet client certificate. */
export function kubeletClientProblem(csr: ParsedCSR, usages: readonly string[]): string | undefined {
  if (!organizationIsNodes(csr)) return "subject organization is not system:nodes";
  if (csr.dnsNames.length > 0) return "DNS subjectAltNames are not allowed";
  if (csr.emailAddresses.length > 0) return "Email subjectAltNames are not allowed";
  if (csr.ipAddresses.length > 0) return "IP subjectAltNames are not allowed";
  if (csr.uris.length > 0) return "URI subjectAltNames are not allowed";
  if (!csr.commonName.startsWith(NODE_PREFIX)) return "subject common name does not begin with system:node:";
  if (!sameSet(usages, KUBELET_CLIENT_USAGES) && !sameSet(usages, KUBELET_CLIENT_USAGES_NO_RSA)) {
    return usagesMismatch(KUBELET_CLIENT_USAGES);
  }
  return undefined;
}

/** ValidateKubeletServingCSR: the error text, or undefined when the request is a kubelet serving certificate. */
export function kubeletServingProblem(csr: ParsedCSR, usages: readonly string[]): string | undefined {
  if (!organizationIsNodes(csr)) return "subject organization is not system:nodes";
  if (csr.dnsNames.length === 0 && csr.ipAddresses.length === 0) return "DNS or IP subjectAltName is required";
  if (csr.emailAddresses.length > 0) return "Email subjectAltNames are not allowed";
  if (csr.uris.length > 0) return "URI subjectAltNames are not allowed";
  if (!sameSet(usages, KUBELET_SERVING_USAGES) && !sameSet(usages, KUBELET_SERVING_USAGES_NO_RSA)) {
    return usagesMismatch(KUBELET_SERVING_USAGES);
  }
  if (!csr.commonName.startsWith(NODE_PREFIX)) return "subject common name does not begin with system:node:";
  return undefined;
}

/** The signer controller's validAPIServerClientUsages: client auth required, only the two key usages besides it. */
export function apiServerClientProblem(usages: readonly string[]): string | undefined {
  for (const usage of usages) {
    if (usage !== "digital signature" && usage !== "key encipherment" && usage !== "client auth") {
      return `invalid usage for client certificate: ${usage}`;
    }
  }
  return usages.includes("client auth") ? undefined : "missing required usage for client certificate: client auth";
}
