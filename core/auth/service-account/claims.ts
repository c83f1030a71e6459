/**
 * kube's service account token claims (pkg/serviceaccount/claims.go and legacy.go): bound tokens carry a
 * `kubernetes.io` private claim (namespace, serviceaccount, pod or secret); legacy secret tokens carry flat
 * `kubernetes.io/serviceaccount/...` claims and the issuer "kubernetes/serviceaccount".
 */
import type { JWTPayload } from "jose";
import type { UserInfo } from "../user.ts";

export const LEGACY_ISSUER = "kubernetes/serviceaccount";

export interface ObjectRef {
  name: string;
  uid: string;
}

export interface ServiceAccountClaims {
  namespace: string;
  serviceAccount: ObjectRef;
  pod?: ObjectRef;
  secret?: ObjectRef;
  /** A secret-based token: no audience, no expiry, valid while its Secret exists. */
  legacy: boolean;
}

export const POD_NAME_EXTRA = "authentication.kubernetes.io/pod-name";
export const POD_UID_EXTRA = "authentication.kubernetes.io/pod-uid";

export function serviceAccountUsername(namespace: string, name: string): string {
  return `system:serviceaccount:${namespace}:${name}`;
}

export function serviceAccountGroups(namespace: string): string[] {
  return ["system:serviceaccounts", `system:serviceaccounts:${namespace}`];
}

export function serviceAccountUser(claims: ServiceAccountClaims): UserInfo {
  const user: UserInfo = {
    username: serviceAccountUsername(claims.namespace, claims.serviceAccount.name),
    uid: claims.serviceAccount.uid,
    groups: serviceAccountGroups(claims.namespace),
  };
  if (claims.pod) user.extra = { [POD_NAME_EXTRA]: [claims.pod.name], [POD_UID_EXTRA]: [claims.pod.uid] };
  return user;
}

/** The `kubernetes.io` private claim of a bound token. */
export function boundTokenClaims(claims: Omit<ServiceAccountClaims, "legacy">): Record<string, unknown> {
  const kube: Record<string, unknown> = { namespace: claims.namespace, serviceaccount: claims.serviceAccount };
  if (claims.pod) kube.pod = claims.pod;
  if (claims.secret) kube.secret = claims.secret;
  return { "kubernetes.io": kube };
}

function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

function ref(value: unknown): ObjectRef | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const { name, uid } = value as Record<string, unknown>;
  return text(name) ? { name: text(name), uid: text(uid) } : undefined;
}

/** The claims of a verified token, or undefined when they do not name a service account. */
export function readServiceAccountClaims(payload: JWTPayload): ServiceAccountClaims | undefined {
  if (payload.iss === LEGACY_ISSUER) {
    const prefix = "kubernetes.io/serviceaccount/";
    const namespace = text(payload[`${prefix}namespace`]);
    const name = text(payload[`${prefix}service-account.name`]);
    const secretName = text(payload[`${prefix}secret.name`]);
    if (!namespace || !name || !secretName) return undefined;
    const serviceAccount = { name, uid: text(payload[`${prefix}service-account.uid`]) };
    return { namespace, serviceAccount, secret: { name: secretName, uid: "" }, legacy: true };
  }
  const kube = payload["kubernetes.io"] as Record<string, unknown> | undefined;
  const namespace = text(kube?.namespace);
  const serviceAccount = ref(kube?.serviceaccount);
  if (!namespace || !serviceAccount) return undefined;
  return { namespace, serviceAccount, pod: ref(kube!.pod), secret: ref(kube!.secret), legacy: false };
}
