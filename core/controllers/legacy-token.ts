/** kube's legacy (Secret-based) service account token: no audience, no expiry, flat claims (pkg/serviceaccount/legacy.go). */
import { SignJWT } from "jose";
import { LEGACY_ISSUER, serviceAccountUsername } from "../auth/service-account/claims.ts";
import type { SigningKey } from "../auth/service-account/keys.ts";

export interface LegacyTokenSubject {
  namespace: string;
  serviceAccountName: string;
  serviceAccountUID: string;
  secretName: string;
}

export function signLegacyToken(key: SigningKey, subject: LegacyTokenSubject): Promise<string> {
  const prefix = "kubernetes.io/serviceaccount/";
  return new SignJWT({
    [`${prefix}namespace`]: subject.namespace,
    [`${prefix}secret.name`]: subject.secretName,
    [`${prefix}service-account.name`]: subject.serviceAccountName,
    [`${prefix}service-account.uid`]: subject.serviceAccountUID,
  })
    .setProtectedHeader({ alg: key.alg, kid: key.kid })
    .setIssuer(LEGACY_ISSUER)
    .setSubject(serviceAccountUsername(subject.namespace, subject.serviceAccountName))
    .sign(key.key);
}
