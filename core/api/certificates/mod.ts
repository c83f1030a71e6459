/** Certificate requests and certificates as kube's API packages read them; @peculiar/x509 for the parsing. */
export { checkCSRSignature, firstPemBlock, parseCSR, type ParsedCSR, parseRequestField } from "./csr.ts";
export { randomSerialNumber } from "./serial-number.ts";
export {
  apiServerClientProblem,
  KUBE_APISERVER_CLIENT_SIGNER,
  KUBELET_CLIENT_SIGNER,
  KUBELET_SERVING_SIGNER,
  kubeletClientProblem,
  kubeletServingProblem,
  LEGACY_UNKNOWN_SIGNER,
} from "./signers.ts";
export { x509 } from "../../runtime/x509.ts";
export type { CertificateSigningRequest, CSRCondition } from "./types.ts";
