/**
 * kube's `csrsigning` (pkg/controller/certificates/signer): issues certificates for approved requests to the
 * kube-apiserver-client, kube-apiserver-client-kubelet and kubelet-serving signers with the cluster signing CA.
 * A request the signer's rules refuse gets a Failed condition; others (unapproved, failed, already issued, other
 * signers) are left alone.
 */
import { Buffer } from "node:buffer";
import { readFile } from "node:fs/promises";
import {
  apiServerClientProblem,
  type CertificateSigningRequest,
  KUBE_APISERVER_CLIENT_SIGNER,
  KUBELET_CLIENT_SIGNER,
  KUBELET_SERVING_SIGNER,
  kubeletClientProblem,
  kubeletServingProblem,
  type ParsedCSR,
  parseRequestField,
} from "../../api/certificates/mod.ts";
import { tolerateBenignRace } from "../_races.ts";
import { type Controller, enqueueChanges } from "../runtime/mod.ts";
import { nowTimestamp } from "../../registry/object-meta.ts";
import { certificateTtlMs, loadSigningAuthority, signRequest } from "./signing-authority.ts";
import { hasTrueCondition, isApproved } from "./conditions.ts";

/** Per signer, kube's isRequestForSignerFn: the reason a request may not be signed, or undefined. */
const SIGNER_RULES: Record<string, (csr: ParsedCSR, usages: string[]) => string | undefined> = {
  [KUBE_APISERVER_CLIENT_SIGNER]: (_csr, usages) => apiServerClientProblem(usages),
  [KUBELET_CLIENT_SIGNER]: kubeletClientProblem,
  [KUBELET_SERVING_SIGNER]: kubeletServingProblem,
};

export const csrSigningController: Controller = {
  name: "csrsigning",
  async start(ctx) {
    const files = ctx.settings.clusterSigning;
    if (!files) {
      ctx.log("no cluster signing certificate configured; not signing");
      return;
    }
    const authority = await loadSigningAuthority(await readFile(files.certFile, "utf8"), await readFile(files.keyFile, "utf8"), files);
    const maxTtlMs = ctx.settings.config.clusterSigningDurationMs;
    const informer = await ctx.informer("certificates.k8s.io", "v1", "certificatesigningrequests");
    const store = ctx.store("certificates.k8s.io", "v1", "certificatesigningrequests");
    const queue = ctx.queue(async (name) => {
      const cached = informer.get("", name) as CertificateSigningRequest | undefined;
      if (!cached || !needsSigning(cached)) return;
      // Decided again on the stored request: the store retries the write when it changed meanwhile.
      await tolerateBenignRace(store.update("", name, async (live) => {
        const csr = live as CertificateSigningRequest;
        if (!needsSigning(csr)) return csr;
        const usages = csr.spec?.usages ?? [];
        const parsed = parseRequestField(csr.spec?.request ?? "");
        const problem = SIGNER_RULES[csr.spec!.signerName!]!(parsed, usages);
        if (problem) return { ...csr, status: failedStatus(csr, problem) };
        const certificate = await signRequest(authority, parsed, {
          usages,
          ttlMs: certificateTtlMs(maxTtlMs, csr.spec?.expirationSeconds),
        });
        return { ...csr, status: { ...csr.status, certificate: Buffer.from(certificate).toString("base64") } };
      }, { subresource: "status" }));
    });
    enqueueChanges(informer, queue, (csr) => String(csr.metadata.name), ctx.signal);
  },
};

/** kube's signer.handle: approved, not failed, not yet issued, and for one of these signers. */
function needsSigning(csr: CertificateSigningRequest): boolean {
  return isApproved(csr) && !hasTrueCondition(csr, "Failed") && !csr.status?.certificate && (csr.spec?.signerName ?? "") in SIGNER_RULES;
}

function failedStatus(csr: CertificateSigningRequest, message: string): CertificateSigningRequest["status"] {
  const failed = { type: "Failed", status: "True", reason: "SignerValidationFailure", message, lastUpdateTime: nowTimestamp() };
  return { ...csr.status, conditions: [...(csr.status?.conditions ?? []), failed] };
}
