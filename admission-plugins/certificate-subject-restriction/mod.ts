/**
 * CertificateSubjectRestriction (kube's plugin/pkg/admission/certificates/subjectrestriction): no request to the
 * kubernetes.io/kube-apiserver-client signer may ask for the system:masters group.
 */
import { KUBE_APISERVER_CLIENT_SIGNER, parseRequestField } from "../../core/api/certificates/mod.ts";
import { admissionForbidden } from "../../core/admission/errors.ts";
import type { BuiltInAdmissionFactory } from "../../core/admission/types.ts";
import { isCSRWrite, signerNameOf } from "../_signers.ts";

const certificateSubjectRestriction: BuiltInAdmissionFactory = () => ({
  name: "CertificateSubjectRestriction",
  handles: (a) => a.operation === "CREATE" && a.subresource === "" && isCSRWrite(a.resource),
  validate(attributes) {
    if (signerNameOf(attributes.object) !== KUBE_APISERVER_CLIENT_SIGNER) return;
    const request = String((attributes.object?.spec as { request?: string } | undefined)?.request ?? "");
    let organizations: string[];
    try {
      organizations = parseRequestField(request).organizations;
    } catch (error) {
      throw admissionForbidden(attributes, `failed to parse CSR: ${(error as Error).message}`);
    }
    if (organizations.includes("system:masters")) {
      throw admissionForbidden(attributes, `use of ${KUBE_APISERVER_CLIENT_SIGNER} signer with system:masters group is not allowed`);
    }
  },
});

export default certificateSubjectRestriction;
