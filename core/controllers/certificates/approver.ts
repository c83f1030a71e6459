/**
 * kube's `csrapproving` (pkg/controller/certificates/approver/sarapprove.go): approves kubelet client certificate
 * requests (signer kubernetes.io/kube-apiserver-client-kubelet, subject system:node:<name> in system:nodes) when a
 * SubjectAccessReview for the requester allows `create certificatesigningrequests/selfnodeclient` (a node renewing
 * its own certificate) or `.../nodeclient` (a bootstrapper asking for any node's).
 */
import type { Attributes, Authorizer } from "../../auth/authorizer.ts";
import {
  type CertificateSigningRequest,
  KUBELET_CLIENT_SIGNER,
  kubeletClientProblem,
  type ParsedCSR,
  parseRequestField,
} from "../../api/certificates/mod.ts";
import { tolerateBenignRace } from "../_races.ts";
import { type Controller, enqueueChanges } from "../runtime/mod.ts";
import { approvalOf } from "./conditions.ts";

interface Recognizer {
  recognize(csr: CertificateSigningRequest, parsed: ParsedCSR): boolean;
  subresource: string;
  successMessage: string;
}

function isNodeClientCert(csr: CertificateSigningRequest, parsed: ParsedCSR): boolean {
  return csr.spec?.signerName === KUBELET_CLIENT_SIGNER && kubeletClientProblem(parsed, csr.spec?.usages ?? []) === undefined;
}

/** kube's recognizers(), in its order. */
const RECOGNIZERS: Recognizer[] = [
  {
    recognize: (csr, parsed) => csr.spec?.username === parsed.commonName && isNodeClientCert(csr, parsed),
    subresource: "selfnodeclient",
    successMessage: "Auto approving self kubelet client certificate after SubjectAccessReview.",
  },
  {
    recognize: isNodeClientCert,
    subresource: "nodeclient",
    successMessage: "Auto approving kubelet client certificate after SubjectAccessReview.",
  },
];

/** The SubjectAccessReview kube's sarApprover.authorize sends, answered by the server's authorizer. */
async function allowed(authorizer: Authorizer, csr: CertificateSigningRequest, subresource: string): Promise<boolean> {
  const spec = csr.spec ?? {};
  const attributes: Attributes = {
    user: { username: spec.username ?? "", uid: spec.uid, groups: spec.groups ?? [], extra: spec.extra },
    verb: "create",
    isResourceRequest: true,
    path: "",
    apiGroup: "certificates.k8s.io",
    apiVersion: "",
    namespace: "",
    resource: "certificatesigningrequests",
    subresource,
    name: "",
  };
  return (await authorizer.authorize(attributes)).decision === "Allow";
}

/** The recognizer whose permission the requester has, if any (sarApprover.handle). */
async function approvalFor(authorizer: Authorizer, csr: CertificateSigningRequest): Promise<Recognizer | undefined> {
  if (csr.status?.certificate) return undefined;
  const { approved, denied } = approvalOf(csr);
  if (approved || denied) return undefined;
  const parsed = parseRequestField(csr.spec?.request ?? "");
  for (const recognizer of RECOGNIZERS) {
    if (recognizer.recognize(csr, parsed) && await allowed(authorizer, csr, recognizer.subresource)) return recognizer;
  }
  return undefined;
}

export const csrApprovingController: Controller = {
  name: "csrapproving",
  async start(ctx) {
    const authorizer = ctx.settings.authorizer;
    if (!authorizer) {
      ctx.log("no authorizer to ask SubjectAccessReviews; not approving");
      return;
    }
    const informer = await ctx.informer("certificates.k8s.io", "v1", "certificatesigningrequests");
    const store = ctx.store("certificates.k8s.io", "v1", "certificatesigningrequests");
    const queue = ctx.queue(async (name) => {
      const cached = informer.get("", name) as CertificateSigningRequest | undefined;
      if (!cached || !(await approvalFor(authorizer, cached))) return;
      await tolerateBenignRace(store.update("", name, async (live) => {
        const csr = live as CertificateSigningRequest;
        const recognizer = await approvalFor(authorizer, csr);
        if (!recognizer) return csr;
        const condition = { type: "Approved", status: "True", reason: "AutoApproved", message: recognizer.successMessage };
        return { ...csr, status: { ...csr.status, conditions: [...(csr.status?.conditions ?? []), condition] } };
      }, { subresource: "approval" }));
    });
    enqueueChanges(informer, queue, (csr) => String(csr.metadata.name), ctx.signal);
  },
};
