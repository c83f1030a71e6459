/**
 * Paths kube's bootstrap policy (system:public-info-viewer) opens to everyone. Until authorization lands they
 * skip authentication, so health probes keep working without credentials.
 */
const PUBLIC_PATHS = /^\/(healthz|livez|readyz|version)(\/.*)?$/;

export function isPublicPath(path: string): boolean {
  return PUBLIC_PATHS.test(path);
}
