/**
 * Paths kube's bootstrap policy (system:public-info-viewer) opens to everyone. Requests to them are authenticated
 * and authorized like any other; they may only be made anonymously even where anonymous access is otherwise off
 * (under AlwaysAllow), so health probes work without credentials in every authorization mode that allows them.
 */
const PUBLIC_PATHS = /^\/(healthz|livez|readyz|version)(\/.*)?$/;

export function isPublicPath(path: string): boolean {
  return PUBLIC_PATHS.test(path);
}
