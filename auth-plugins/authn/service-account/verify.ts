/**
 * Signature, issuer, time and audience checks of a service account JWT (kube's jwtTokenAuthenticator). A token
 * that is not a JWT or names another issuer is not ours, so the next token authenticator (OIDC, ...) may try it.
 */
import { randomBytes } from "node:crypto";
import { compactVerify, decodeJwt, decodeProtectedHeader, type JWTPayload } from "jose";
import { deepFreeze } from "../../../core/api/deep-freeze.ts";
import { LEGACY_ISSUER, readServiceAccountClaims, type ServiceAccountClaims } from "../../../core/auth/service-account/claims.ts";
import type { VerificationKey } from "../../../core/auth/service-account/keys.ts";
import { forgetOldest } from "../../../core/runtime/bounded.ts";
import { keyedDigest } from "../../../core/runtime/keyed-digest.ts";

/** go-jose's jwt.DefaultLeeway. */
const LEEWAY_SECONDS = 60;

export type JwtCheck =
  | { kind: "not-mine" }
  | { kind: "error"; message: string }
  | { kind: "valid"; claims: ServiceAccountClaims; audiences: string[] };

export interface JwtCheckOptions {
  issuers: string[];
  /** Audiences assumed for a token that names none (the API audiences). */
  implicitAudiences: string[];
  /** Audiences the token is presented for. */
  audiences: string[];
  now?: Date;
}

/** Tokens whose signature each key set has verified, and their payloads; the oldest is forgotten first beyond this. */
const TOKENS_KEPT = 4096;
/** Tokens are remembered by an HMAC under a per-process secret, as kube's tokencache keys them, never in the clear. */
const tokenDigest = keyedDigest(randomBytes(32));
const verifiedSignatures = new WeakMap<VerificationKey[], Set<string>>();
/**
 * Payloads of tokens whose signature verified, by digest: decoding depends on nothing but the token, so a client
 * sending one token decodes it once. Only signed tokens are kept: anyone can send well-formed tokens of any size.
 */
const signedPayloads = new Map<string, Readonly<JWTPayload>>();

/** A compact JWS has three dot-separated parts; anything else (a static or bootstrap token) is not worth a digest. */
function hasJwsShape(token: string): boolean {
  const first = token.indexOf(".");
  return first > 0 && token.indexOf(".", first + 1) > first + 1;
}

/** The token's payload if it is a JWT; shared by every request with a signed token, so frozen. */
function peek(token: string, digest: string): Readonly<JWTPayload> | undefined {
  const remembered = signedPayloads.get(digest);
  if (remembered) return remembered;
  try {
    decodeProtectedHeader(token);
    return deepFreeze(decodeJwt(token));
  } catch {
    return undefined;
  }
}

/** The kubernetes.io claims of a payload, read once per payload object (a kept payload is shared, so they are too). */
const payloadClaims = new WeakMap<Readonly<JWTPayload>, Readonly<ServiceAccountClaims> | null>();

function claimsOf(payload: Readonly<JWTPayload>): Readonly<ServiceAccountClaims> | undefined {
  let claims = payloadClaims.get(payload);
  if (claims === undefined) payloadClaims.set(payload, claims = deepFreeze(readServiceAccountClaims(payload) ?? null));
  return claims ?? undefined;
}

function rememberSigned(digest: string, payload: Readonly<JWTPayload>): void {
  if (signedPayloads.has(digest)) return;
  signedPayloads.set(digest, payload);
  forgetOldest(signedPayloads, TOKENS_KEPT);
}

/**
 * Whether one of the keys signed the token. The answer depends on nothing but the token and the keys, so a verified
 * signature is remembered per key set and a client sending one token on every request pays for the public-key
 * operation once; the time, audience and revocation checks around it still run on every request.
 */
function signatureVerifies(token: string, digest: string, keys: VerificationKey[]): boolean | Promise<boolean> {
  let verified = verifiedSignatures.get(keys);
  if (!verified) verifiedSignatures.set(keys, verified = new Set());
  return verified.has(digest) || verifiedByOneOf(token, digest, keys, verified);
}

async function verifiedByOneOf(token: string, digest: string, keys: VerificationKey[], verified: Set<string>): Promise<boolean> {
  const { kid } = decodeProtectedHeader(token);
  const candidates = keys.filter((k) => k.kid === kid);
  for (const key of candidates.length > 0 ? candidates : keys) {
    try {
      await compactVerify(token, key.key, { algorithms: [key.alg] });
      verified.add(digest);
      forgetOldest(verified, TOKENS_KEPT);
      return true;
    } catch {
      // Try the next key, as kube does.
    }
  }
  return false;
}

function timeProblem(payload: Readonly<JWTPayload>, now: number): string | undefined {
  if (payload.exp !== undefined && now > payload.exp + LEEWAY_SECONDS) return "service account token has expired";
  if (payload.nbf !== undefined && now < payload.nbf - LEEWAY_SECONDS) return "service account token is not valid yet";
  if (payload.iat !== undefined && now < payload.iat - LEEWAY_SECONDS) return "service account token is issued in the future";
  return undefined;
}

/** Go's %q of a string slice. */
function quotedList(values: string[]): string {
  return `[${values.map((v) => JSON.stringify(v)).join(" ")}]`;
}

const NOT_MINE: JwtCheck = { kind: "not-mine" };
const INVALID_SIGNATURE: JwtCheck = { kind: "error", message: "invalid signature" };

/** kube's jwtTokenAuthenticator.AuthenticateToken; at once, without a promise, for a token whose signature verified before. */
export function checkServiceAccountJwt(token: string, keys: VerificationKey[], options: JwtCheckOptions): JwtCheck | Promise<JwtCheck> {
  if (!hasJwsShape(token)) return NOT_MINE;
  const digest = tokenDigest(token);
  const payload = peek(token, digest);
  if (!payload || typeof payload.iss !== "string") return NOT_MINE;
  if (payload.iss !== LEGACY_ISSUER && !options.issuers.includes(payload.iss)) return NOT_MINE;
  // Branched rather than thenOrNow, the closure in a function of its own: a token verified before makes no closure
  // and no scope here.
  const verifies = signatureVerifies(token, digest, keys);
  if (verifies instanceof Promise) return checkOnceVerified(verifies, digest, payload, options);
  return afterSignature(verifies, digest, payload, options);
}

function checkOnceVerified(verifies: Promise<boolean>, digest: string, payload: Readonly<JWTPayload>, options: JwtCheckOptions) {
  return verifies.then((verified) => afterSignature(verified, digest, payload, options));
}

function afterSignature(verifies: boolean, digest: string, payload: Readonly<JWTPayload>, options: JwtCheckOptions): JwtCheck {
  if (!verifies) return INVALID_SIGNATURE;
  rememberSigned(digest, payload);
  return signedTokenCheck(payload, options);
}

/** The checks after the signature's: time on every request, then the kubernetes.io claims and audiences. */
function signedTokenCheck(payload: Readonly<JWTPayload>, options: JwtCheckOptions): JwtCheck {
  const now = options.now === undefined ? Date.now() : options.now.getTime();
  const problem = timeProblem(payload, Math.floor(now / 1000));
  if (problem) return { kind: "error", message: problem };
  return audienceCheck(payload, options);
}

interface AudienceOutcome {
  implicitAudiences: string[];
  audiences: string[];
  check: JwtCheck;
}

/**
 * The last claims-and-audience outcome of each signed payload, with the audience lists it was reached for. It
 * depends on nothing else, and the server passes the same lists on every request, so a client sending one token
 * gets the same frozen answer (and its user, mod.ts) without a new one per request.
 */
const audienceOutcomes = new WeakMap<Readonly<JWTPayload>, AudienceOutcome>();

function audienceCheck(payload: Readonly<JWTPayload>, options: JwtCheckOptions): JwtCheck {
  const last = audienceOutcomes.get(payload);
  if (last && last.audiences === options.audiences && last.implicitAudiences === options.implicitAudiences) return last.check;
  const check = deepFreeze(claimsAndAudiences(payload, options));
  audienceOutcomes.set(payload, { implicitAudiences: options.implicitAudiences, audiences: options.audiences, check });
  return check;
}

/** kube's validator.Validate's claims and jwtTokenAuthenticator's audience intersection. */
function claimsAndAudiences(payload: Readonly<JWTPayload>, options: JwtCheckOptions): JwtCheck {
  const claims = claimsOf(payload);
  if (!claims) return { kind: "error", message: "service account token has no kubernetes.io claims" };
  const named = payload.aud === undefined ? [] : Array.isArray(payload.aud) ? payload.aud : [payload.aud];
  const tokenAudiences = named.length > 0 ? named : options.implicitAudiences;
  const audiences = tokenAudiences.filter((a) => options.audiences.includes(a));
  if (audiences.length === 0) {
    return {
      kind: "error",
      message: `token audiences ${quotedList(tokenAudiences)} is invalid for the target audiences ${quotedList(options.audiences)}`,
    };
  }
  return { kind: "valid", claims, audiences };
}
