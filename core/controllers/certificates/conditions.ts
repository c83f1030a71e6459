/** What the certificate controllers read of a CertificateSigningRequest (kube's pkg/controller/certificates helpers). */
import type { CertificateSigningRequest } from "../../api/certificates/mod.ts";

/** kube's GetCertApprovalCondition: any Approved / Denied condition counts, whatever its status. */
export function approvalOf(csr: CertificateSigningRequest): { approved: boolean; denied: boolean } {
  const types = (csr.status?.conditions ?? []).map((c) => c.type);
  return { approved: types.includes("Approved"), denied: types.includes("Denied") };
}

/** kube's IsCertificateRequestApproved. */
export function isApproved(csr: CertificateSigningRequest): boolean {
  const { approved, denied } = approvalOf(csr);
  return approved && !denied;
}

export function hasTrueCondition(csr: CertificateSigningRequest, type: string): boolean {
  return (csr.status?.conditions ?? []).some((c) => c.type === type && c.status === "True");
}
