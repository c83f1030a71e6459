/**
 * CertificateApproval (kube's plugin/pkg/admission/certificates/approval): an update through
 * certificatesigningrequests/approval needs `approve` on the request's signer (resource `signers`).
 */
import { admissionForbidden } from "../../core/admission/errors.ts";
import type { BuiltInAdmissionFactory } from "../../core/admission/types.ts";
import { isAuthorizedForSignerName, isCSRWrite, signerNameOf } from "../_signers.ts";

const certificateApproval: BuiltInAdmissionFactory = ({ authorizer }) => ({
  name: "CertificateApproval",
  handles: (a) => a.operation === "UPDATE" && a.subresource === "approval" && isCSRWrite(a.resource),
  async validate(attributes) {
    // Checked against the new object, as kube does.
    const signerName = signerNameOf(attributes.object);
    if (!(await isAuthorizedForSignerName(authorizer, attributes.user, "approve", signerName))) {
      throw admissionForbidden(attributes, `user not permitted to approve requests with signerName "${signerName}"`);
    }
  },
});

export default certificateApproval;
