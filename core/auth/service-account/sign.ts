/** Mints bound service account tokens (kube's token.Claims + jwtTokenGenerator). */
import { SignJWT } from "jose";
import { boundTokenClaims, type ObjectRef, serviceAccountUsername } from "./claims.ts";
import type { SigningKey } from "./keys.ts";

export interface BoundTokenSpec {
  issuer: string;
  audiences: string[];
  expirationSeconds: number;
  /** Issued-at; the expiry reported to the client is computed from the same instant. */
  now: Date;
  namespace: string;
  serviceAccount: ObjectRef;
  pod?: ObjectRef;
  secret?: ObjectRef;
}

export function signBoundToken(key: SigningKey, spec: BoundTokenSpec): Promise<string> {
  const issuedAt = Math.floor(spec.now.getTime() / 1000);
  return new SignJWT(boundTokenClaims(spec))
    .setProtectedHeader({ alg: key.alg, kid: key.kid })
    .setIssuer(spec.issuer)
    .setSubject(serviceAccountUsername(spec.namespace, spec.serviceAccount.name))
    .setAudience(spec.audiences)
    .setIssuedAt(issuedAt)
    .setNotBefore(issuedAt)
    .setExpirationTime(issuedAt + spec.expirationSeconds)
    .sign(key.key);
}
