/**
 * Authenticating proxy (spec 5.5): headers name the user only when the request's client certificate verifies
 * against --requestheader-client-ca-file (not the normal client CA) and its CN is allowed; otherwise they are
 * ignored and the other authenticators decide.
 */
import { readFile } from "node:fs/promises";
import { chainVerifier } from "../../../core/runtime/certificate-chain.ts";
import { type Authentication, defineAuthenticator } from "../../../plugins/sdk.ts";
import { userFromHeaders } from "./headers.ts";

const NOT_MINE: Authentication = { kind: "not-mine" };

export default defineAuthenticator(async ({ config }) => {
  const fromProxyCA = chainVerifier(await readFile(config.requestheaderClientCaFile, "utf8"));
  const allowedNames = config.requestheaderAllowedNames;
  const names = {
    usernameHeaders: config.requestheaderUsernameHeaders,
    groupHeaders: config.requestheaderGroupHeaders,
    extraHeaderPrefixes: config.requestheaderExtraHeadersPrefix,
  };
  // Answered without a promise: the union then asks the client certificate authenticator after it in the same turn,
  // and every request with a client certificate passes here first (kube's union.unionAuthRequestHandler).
  return {
    authenticate(request): Authentication {
      const cert = request.peerCertificate;
      if (!cert || !fromProxyCA(cert.chain)) return NOT_MINE;
      if (allowedNames.length > 0 && !allowedNames.includes(cert.commonName)) {
        return { kind: "error", message: `x509: subject with cn=${cert.commonName} is not in the allowed list` };
      }
      const user = userFromHeaders(request.headers, names);
      return user ? { kind: "user", user } : NOT_MINE;
    },
  };
});
export { userFromHeaders } from "./headers.ts";
