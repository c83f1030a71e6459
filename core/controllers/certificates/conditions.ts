/** What the certificate controllers read of a CertificateSigningRequest (kube's pkg/controller/certificates helpers). */
import type { KubeObject } from "../../api/types.ts";

export interface Condition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
  lastUpdateTime?: string;
}

export type CSRFields = KubeObject & {
  spec?: {
    request?: string;
    signerName?: string;
    usages?: string[];
    expirationSeconds?: number;
    username?: string;
    uid?: string;
    groups?: string[];
    extra?: Record<string, string[]>;
  };
  status?: { conditions?: Condition[]; certificate?: string };
};

/** kube's GetCertApprovalCondition: any Approved / Denied condition counts, whatever its status. */
export function approvalOf(csr: CSRFields): { approved: boolean; denied: boolean } {
  const types = (csr.status?.conditions ?? []).map((c) => c.type);
  return { approved: types.includes("Approved"), denied: types.includes("Denied") };
}

/** kube's IsCertificateRequestApproved. */
export function isApproved(csr: CSRFields): boolean {
  const { approved, denied } = approvalOf(csr);
  return approved && !denied;
}

export function hasTrueCondition(csr: CSRFields, type: string): boolean {
  return (csr.status?.conditions ?? []).some((c) => c.type === type && c.status === "True");
}
