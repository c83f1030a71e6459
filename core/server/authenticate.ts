/**
 * Interim authentication until the authenticator plugins land: a client certificate that verifies against the
 * client CA identifies the user (CN = name, O = groups); anything else is 401.
 */
import { newUnauthorized } from "../api/errors.ts";
import type { ConnectionInfo } from "../runtime/listener.ts";

export interface UserInfo {
  username: string;
  groups: string[];
}

export function authenticateClientCertificate(conn: ConnectionInfo): UserInfo {
  const cert = conn.peerCertificate;
  if (!cert?.verified || cert.commonName === "") throw newUnauthorized();
  return { username: cert.commonName, groups: [...cert.organizations, "system:authenticated"] };
}

/** Paths kube's bootstrap policy (system:public-info-viewer) opens to everyone. */
const PUBLIC_PATHS = /^\/(healthz|livez|readyz|version)(\/.*)?$/;

export function isPublicPath(path: string): boolean {
  return PUBLIC_PATHS.test(path);
}
