/** Client certificates (spec 5.2): a certificate that verifies against --client-ca-file names the user (CN) and groups (O). */
import { type Authentication, type AuthenticatorPlugin, defineAuthenticator } from "../../../plugins/sdk.ts";

const NOT_MINE: Authentication = { kind: "not-mine" };

const x509: AuthenticatorPlugin = {
  authenticate(request) {
    const cert = request.peerCertificate;
    if (!cert) return NOT_MINE;
    if (!cert.verified) return { kind: "error", message: "x509: certificate signed by unknown authority" };
    if (cert.commonName === "") return { kind: "error", message: "x509: certificate has no common name" };
    return { kind: "user", user: { username: cert.commonName, groups: [...cert.organizations] } };
  },
};

export default defineAuthenticator(() => x509);
