/**
 * Verifies a client certificate chain against one CA bundle. The TLS server trusts the union of the client CA
 * and the front proxy's CA, so each authenticator checks which of them the peer's chain actually ends in.
 */
import { X509Certificate } from "node:crypto";
import { x509 } from "./x509.ts";
import { forgetOldest } from "./bounded.ts";

const CLIENT_AUTH_USAGE = "1.3.6.1.5.5.7.3.2";
const ANY_USAGE = "2.5.29.37.0";
const MAX_CHAIN_LENGTH = 10;
const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

export type ChainVerifier = (chainPem: readonly string[], now?: Date) => boolean;

function validAt(certificate: X509Certificate, now: Date): boolean {
  return Date.parse(certificate.validFrom) <= now.getTime() && now.getTime() <= Date.parse(certificate.validTo);
}

function issued(issuer: X509Certificate, subject: X509Certificate): boolean {
  return issuer.ca && subject.checkIssued(issuer) && subject.verify(issuer.publicKey);
}

/** node:crypto's `keyUsage` is the extended key usage under Node and Bun, but the plain key usage under Deno. */
const KEY_USAGE_IS_EXTENDED = !("Deno" in globalThis);

/** The extended key usage OIDs: cheap from node:crypto where it has them, else read from the DER (Deno). */
function extendedKeyUsages(leaf: X509Certificate): string[] {
  if (KEY_USAGE_IS_EXTENDED) return leaf.keyUsage ?? [];
  return new (x509().X509Certificate)(leaf.raw).getExtension(x509().ExtendedKeyUsageExtension)?.usages.map(String) ?? [];
}

function allowsClientAuth(leaf: X509Certificate): boolean {
  const usages = extendedKeyUsages(leaf);
  return usages.length === 0 || usages.includes(CLIENT_AUTH_USAGE) || usages.includes(ANY_USAGE);
}

function parseAll(chainPem: readonly string[]): X509Certificate[] | null {
  try {
    return chainPem.map((pem) => new X509Certificate(pem));
  } catch {
    return null;
  }
}

/**
 * Whether a chain (leaf first) verifies against the roots at `now`, and until when that answer holds: a verified
 * chain until the earliest notAfter on its path to a root (that root included); a refused one until the earliest
 * notBefore still ahead in it or in the roots (a certificate not yet valid), or for good.
 */
function verifyChain(roots: X509Certificate[], chainPem: readonly string[], now: Date): { verified: boolean; until: number } {
  const parsed = parseAll(chainPem);
  // A chain that does not even parse verifies nothing; it is not the server's failure.
  if (!parsed) return { verified: false, until: Infinity };
  const notYetValid = Math.min(...[...parsed, ...roots].map((c) => Date.parse(c.validFrom)).filter((from) => from > now.getTime()));
  const refused = { verified: false, until: notYetValid };
  const [leaf, ...intermediates] = parsed;
  if (!allowsClientAuth(leaf!)) return refused;
  let current = leaf!;
  let until = Infinity;
  for (let depth = 0; depth < MAX_CHAIN_LENGTH && validAt(current, now); depth++) {
    until = Math.min(until, Date.parse(current.validTo));
    const root = roots.find((candidate) => validAt(candidate, now) && issued(candidate, current));
    if (root) return { verified: true, until: Math.min(until, Date.parse(root.validTo)) };
    const next = intermediates.find((candidate) => candidate !== current && issued(candidate, current));
    if (!next) return refused;
    current = next;
  }
  return refused;
}

/** Chains whose answer is remembered per bundle; the oldest is forgotten first beyond this. */
const VERIFIED_CHAINS_KEPT = 1024;

/**
 * A verifier for chains (leaf first, then the intermediates the client sent) against the bundle's CAs. Each chain's
 * answer is remembered for as long as it holds (see verifyChain), so clients that open many connections with one
 * certificate, and the request-header check of every client certificate, pay for parsing and signature checks once;
 * the answer is always the one verifying again would give (a changed CA bundle is a new verifier).
 */
export function chainVerifier(caBundlePem: string): ChainVerifier {
  const roots = [...caBundlePem.matchAll(PEM_CERTIFICATE)].map(([pem]) => new X509Certificate(pem));
  const answers = new Map<string, RememberedAnswer>();
  // A connection's chain is one array for all its requests: its answer is found by the array, and its key is joined
  // once, when the array is first seen.
  const byChain = new WeakMap<readonly string[], RememberedAnswer>();
  return (chainPem, now) => {
    if (chainPem.length === 0 || roots.length === 0) return false;
    // Every request with a client certificate asks: the clock is read as a number, a Date made only to verify.
    const time = now === undefined ? Date.now() : now.getTime();
    const known = byChain.get(chainPem);
    if (known !== undefined && holdsAt(known, time)) return known.verified;
    const key = chainPem.join("");
    const remembered = answers.get(key);
    if (remembered !== undefined && holdsAt(remembered, time)) {
      byChain.set(chainPem, remembered);
      return remembered.verified;
    }
    answers.delete(key);
    const answer: RememberedAnswer = { ...verifyChain(roots, chainPem, now ?? new Date(time)), since: time };
    answers.set(key, answer);
    byChain.set(chainPem, answer);
    forgetOldest(answers, VERIFIED_CHAINS_KEPT);
    return answer.verified;
  };
}

interface RememberedAnswer {
  verified: boolean;
  until: number;
  since: number;
}

/** An answer holds from the time it was given until its `until`; a clock set back asks again. */
function holdsAt(answer: RememberedAnswer, time: number): boolean {
  return answer.since <= time && time <= answer.until;
}
