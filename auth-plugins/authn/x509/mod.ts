/** Client certificates (spec 5.2): a certificate that verifies against --client-ca-file names the user (CN) and groups (O). */
import { type AuthenticatorPlugin, defineAuthenticator } from "../../../plugins/sdk.ts";

const x509: AuthenticatorPlugin = {
  authenticate(request) {
    const cert = request.peerCertificate;
    if (!cert) return { kind: "not-mine" };
    if (!cert.verified) return { kind: "error", message: "x509: certificate signed by unknown authority" };
    if (cert.commonName === "") return { kind: "error", message: "x509: certificate has no common name" };
    return { kind: "user", user: { username: cert.commonName, groups: [...cert.organizations] } };
  },
};

export default defineAuthenticator(() => x509);
