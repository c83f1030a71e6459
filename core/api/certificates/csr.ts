/**
 * PKCS#10 certificate requests as kube reads them (pkg/apis/certificates/helpers.go ParseCSR and Go's
 * x509.CertificateRequest.CheckSignature): the first PEM block must be a CERTIFICATE REQUEST, and its signature
 * must verify with the key it carries. Checks are synchronous (node:crypto) so validation can run them inline.
 */
import { Buffer } from "node:buffer";
import { createPublicKey, verify } from "node:crypto";
import type * as X509 from "@peculiar/x509";
import { x509 } from "../../runtime/x509.ts";

export interface ParsedCSR {
  commonName: string;
  organizations: string[];
  dnsNames: string[];
  ipAddresses: string[];
  emailAddresses: string[];
  uris: string[];
  /** The request itself, for signing (its public key and subject). */
  request: X509.Pkcs10CertificateRequest;
}

const PEM_BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----\r?\n([\s\S]*?)-----END \1-----/;

/** The first PEM block of `pem`, or null (Go's pem.Decode). */
export function firstPemBlock(pem: string): { type: string; der: Buffer; headers: boolean } | null {
  const match = PEM_BLOCK.exec(pem);
  if (!match) return null;
  const body = match[2]!;
  return {
    type: match[1]!,
    der: Buffer.from(body.replace(/^[A-Za-z-]+:.*$/gm, "").replace(/\s+/g, ""), "base64"),
    headers: /^[A-Za-z-]+:/m.test(body),
  };
}

/** kube's certificates.ParseCSR; throws an Error with kube's message. */
export function parseCSR(pem: string): ParsedCSR {
  const block = firstPemBlock(pem);
  if (!block || block.type !== "CERTIFICATE REQUEST") throw new Error("PEM block type must be CERTIFICATE REQUEST");
  let request: X509.Pkcs10CertificateRequest;
  try {
    request = new (x509().Pkcs10CertificateRequest)(new Uint8Array(block.der));
  } catch {
    throw new Error("x509: malformed certificate request");
  }
  const names =
    request.extensions.find((e): e is X509.SubjectAlternativeNameExtension => e instanceof x509().SubjectAlternativeNameExtension)?.names
      .items ?? [];
  const valuesOf = (type: string) => names.filter((n) => n.type === type).map((n) => n.value);
  return {
    commonName: request.subjectName.getField("CN")[0] ?? "",
    organizations: request.subjectName.getField("O"),
    dnsNames: valuesOf("dns"),
    ipAddresses: valuesOf("ip"),
    emailAddresses: valuesOf("email"),
    uris: valuesOf("url"),
    request,
  };
}

/** spec.request as the API carries it (base64 of the PEM text), parsed. */
export function parseRequestField(base64: string): ParsedCSR {
  return parseCSR(Buffer.from(base64, "base64").toString("latin1"));
}

const HASHES: Record<string, string> = { "SHA-1": "sha1", "SHA-256": "sha256", "SHA-384": "sha384", "SHA-512": "sha512" };

/** Go's CheckSignature: throws with Go's wording when the request's signature does not verify with its own key. */
export function checkCSRSignature(csr: ParsedCSR): void {
  const request = csr.request;
  // The signed bytes are the DER of certificationRequestInfo, which the parser keeps as it read it.
  const signed = (request as unknown as { asn: { certificationRequestInfoRaw?: ArrayBuffer } }).asn.certificationRequestInfoRaw;
  const algorithm = request.signatureAlgorithm as { name: string; hash?: { name: string } };
  const hash = algorithm.hash ? HASHES[algorithm.hash.name] : undefined;
  const keyType = algorithm.name === "ECDSA"
    ? "ECDSA"
    : algorithm.name === "RSASSA-PKCS1-v1_5"
    ? "RSA"
    : algorithm.name === "Ed25519"
    ? "Ed25519"
    : undefined;
  if (!signed || !keyType || (keyType !== "Ed25519" && !hash)) throw new Error("x509: cannot verify signature: algorithm unimplemented");
  let ok = false;
  try {
    const key = createPublicKey({ key: Buffer.from(request.publicKey.rawData), format: "der", type: "spki" });
    ok = verify(keyType === "Ed25519" ? null : hash!, Buffer.from(signed), key, Buffer.from(request.signature));
  } catch {
    ok = false;
  }
  if (ok) return;
  throw new Error(
    keyType === "ECDSA"
      ? "x509: ECDSA verification failure"
      : keyType === "RSA"
      ? "crypto/rsa: verification error"
      : "x509: Ed25519 verification failure",
  );
}
