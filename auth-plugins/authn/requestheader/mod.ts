/**
 * Authenticating proxy (spec 5.5): headers name the user only when the request's client certificate verifies
 * against --requestheader-client-ca-file (not the normal client CA) and its CN is allowed; otherwise they are
 * ignored and the other authenticators decide.
 */
import { readFile } from "node:fs/promises";
import { chainVerifier } from "../../../core/runtime/certificate-chain.ts";
import { defineAuthenticator } from "../../../plugins/sdk.ts";
import { userFromHeaders } from "./headers.ts";

export default defineAuthenticator(async ({ config }) => {
  const fromProxyCA = chainVerifier(await readFile(config.requestheaderClientCaFile, "utf8"));
  const allowedNames = config.requestheaderAllowedNames;
  const names = {
    usernameHeaders: config.requestheaderUsernameHeaders,
    groupHeaders: config.requestheaderGroupHeaders,
    extraHeaderPrefixes: config.requestheaderExtraHeadersPrefix,
  };
  return {
    authenticate(request) {
      const cert = request.peerCertificate;
      if (!cert || !fromProxyCA(cert.chain)) return Promise.resolve({ kind: "not-mine" });
      if (allowedNames.length > 0 && !allowedNames.includes(cert.commonName)) {
        return Promise.resolve({ kind: "error", message: `x509: subject with cn=${cert.commonName} is not in the allowed list` });
      }
      const user = userFromHeaders(request.headers, names);
      return Promise.resolve(user ? { kind: "user", user } : { kind: "not-mine" });
    },
  };
});
export { userFromHeaders } from "./headers.ts";
