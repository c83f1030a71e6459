/** certificates.k8s.io/v1 CertificateSigningRequest as the code reads it (JSON form: request and certificate are base64). */
import type { KubeObject } from "../types.ts";

export interface CSRCondition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
  lastUpdateTime?: string;
  lastTransitionTime?: string;
}

export type CertificateSigningRequest = KubeObject & {
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
  status?: { conditions?: CSRCondition[]; certificate?: string };
};
