/**
 * kube's plugin/pkg/admission/certificates IsAuthorizedForSignerName: may the user `verb` (approve, sign) requests
 * for a signer — named exactly, or through the wildcard `<domain>/*` — as a `signers` resource of certificates.k8s.io.
 */
import type { Attributes, Authorizer } from "../core/auth/authorizer.ts";
import type { UserInfo } from "../core/auth/user.ts";
import type { KubeObject } from "../core/api/types.ts";

function signerAttributes(user: UserInfo, verb: string, name: string): Attributes {
  return {
    user,
    verb,
    name,
    isResourceRequest: true,
    path: "",
    apiGroup: "certificates.k8s.io",
    apiVersion: "*",
    namespace: "",
    resource: "signers",
    subresource: "",
  };
}

export async function isAuthorizedForSignerName(
  authorizer: Authorizer,
  user: UserInfo,
  verb: string,
  signerName: string,
): Promise<boolean> {
  if ((await authorizer.authorize(signerAttributes(user, verb, signerName))).decision === "Allow") return true;
  const domain = signerName.split("/")[0];
  return (await authorizer.authorize(signerAttributes(user, verb, `${domain}/*`))).decision === "Allow";
}

export const isCSRWrite = (resource: { group: string; resource: string }) =>
  resource.group === "certificates.k8s.io" && resource.resource === "certificatesigningrequests";

/** spec.signerName of a CertificateSigningRequest object. */
export function signerNameOf(obj: KubeObject | null): string {
  return String((obj?.spec as { signerName?: string } | undefined)?.signerName ?? "");
}
