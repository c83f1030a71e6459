/** The bootstrap token controllers (spec 2.10, 3.3, 5.13), both off by default as in kube. */
export { bootstrapSigner } from "./bootstrap-signer.ts";
export {
  CLUSTER_INFO_NAME,
  CLUSTER_INFO_NAMESPACE,
  clusterInfoKubeconfig,
  ensureClusterInfo,
  KUBECONFIG_KEY,
  SIGNATURE_KEY_PREFIX,
} from "./cluster-info.ts";
export { detachedSignature } from "./detached-jws.ts";
export { tokenCleaner } from "./token-cleaner.ts";
