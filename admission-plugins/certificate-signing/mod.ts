/**
 * CertificateSigning (kube's plugin/pkg/admission/certificates/signing): a status update that changes
 * status.certificate needs `sign` on the request's signer (resource `signers`).
 */
import { admissionForbidden } from "../../core/admission/errors.ts";
import type { BuiltInAdmissionFactory } from "../../core/admission/types.ts";
import type { KubeObject } from "../../core/api/types.ts";
import { isAuthorizedForSignerName, isCSRWrite, signerNameOf } from "../_signers.ts";

const certificateOf = (obj: KubeObject | null) => (obj?.status as { certificate?: string } | undefined)?.certificate ?? "";

const certificateSigning: BuiltInAdmissionFactory = ({ authorizer }) => ({
  name: "CertificateSigning",
  handles: (a) => a.operation === "UPDATE" && a.subresource === "status" && isCSRWrite(a.resource),
  async validate(attributes) {
    if (certificateOf(attributes.object) === certificateOf(attributes.oldObject)) return;
    const signerName = signerNameOf(attributes.oldObject);
    if (!(await isAuthorizedForSignerName(authorizer, attributes.user, "sign", signerName))) {
      throw admissionForbidden(attributes, `user not permitted to sign requests with signerName "${signerName}"`);
    }
  },
});

export default certificateSigning;
