/** Client certificates (spec 5.2): a certificate that verifies against --client-ca-file names the user (CN) and groups (O). */
import { type Authentication, type AuthenticationRequest, type AuthenticatorPlugin, defineAuthenticator } from "../../../plugins/sdk.ts";

type PeerCertificate = NonNullable<AuthenticationRequest["peerCertificate"]>;

const NO_CERTIFICATE: Authentication = { kind: "not-mine" };

/**
 * The answer for each certificate the listener handed over. The listener reads and verifies a connection's
 * certificate once and hands the same object with every request of the connection, so the user is made once per
 * connection too; it is frozen, being shared by those requests.
 */
const answers = new WeakMap<PeerCertificate, Authentication>();

function answerFor(cert: PeerCertificate): Authentication {
  if (!cert.verified) return { kind: "error", message: "x509: certificate signed by unknown authority" };
  if (cert.commonName === "") return { kind: "error", message: "x509: certificate has no common name" };
  return { kind: "user", user: Object.freeze({ username: cert.commonName, groups: Object.freeze([...cert.organizations]) as string[] }) };
}

const x509: AuthenticatorPlugin = {
  authenticate(request) {
    const cert = request.peerCertificate;
    if (!cert) return NO_CERTIFICATE;
    let answer = answers.get(cert);
    if (answer === undefined) {
      answer = answerFor(cert);
      answers.set(cert, answer);
    }
    return answer;
  },
};

export default defineAuthenticator(() => x509);
