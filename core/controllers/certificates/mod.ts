/** The certificate controllers (kube-controller-manager's csrapproving and csrsigning). */
export { csrApprovingController } from "./approver.ts";
export { csrSigningController } from "./signer.ts";
