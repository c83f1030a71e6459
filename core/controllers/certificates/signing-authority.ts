/**
 * The csrsigning controller's CA (kube's pkg/controller/certificates/authority): loads the signing certificate and
 * key, and issues a certificate for a request under kube's PermissiveSigningPolicy — subject and SANs from the
 * request, key usages from spec.usages, validity backdated 5 minutes (not for short-lived certificates) and capped
 * by the CA's own expiry.
 */
import { createPrivateKey, X509Certificate } from "node:crypto";
import type * as X509 from "@peculiar/x509";
import { type ParsedCSR, randomSerialNumber, x509 } from "../../api/certificates/mod.ts";

const BACKDATE_MS = 5 * 60 * 1000;
const SHORT_MS = 8 * 60 * 60 * 1000;
const CURVES: Record<string, string> = { prime256v1: "P-256", secp384r1: "P-384", secp521r1: "P-521" };

export interface SigningAuthority {
  /** The CA certificate as x509 reads it, parsed at the first signing (x509 is loaded on first use). */
  certificate(): X509.X509Certificate;
  privateKey: CryptoKey;
  signingAlgorithm: Algorithm | EcdsaParams;
}

/** Runs `read`, naming `file` in its error as kube's caProvider.setCA does ("error reading CA cert file %q: %v"). */
function reading<T>(what: string, file: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    throw new Error(`error reading CA ${what} file ${JSON.stringify(file)}: ${error instanceof Error ? error.message : error}`);
  }
}

/**
 * Reads a PEM CA certificate and its key (PKCS#8, SEC1 or PKCS#1; ECDSA or RSA); `files` names them in errors.
 */
export async function loadSigningAuthority(
  certPem: string,
  keyPem: string,
  files = { certFile: "", keyFile: "" },
): Promise<SigningAuthority> {
  // Checked now, as kube loads its CA when the controller starts; x509's own reading waits for a request to sign.
  reading("cert", files.certFile, () => new X509Certificate(certPem));
  let parsed: X509.X509Certificate | undefined;
  const certificate = () => parsed ??= new (x509().X509Certificate)(certPem);
  const key = reading("key", files.keyFile, () => createPrivateKey(keyPem));
  const pkcs8 = new Uint8Array(key.export({ format: "der", type: "pkcs8" }));
  if (key.asymmetricKeyType === "ec") {
    const namedCurve = CURVES[key.asymmetricKeyDetails?.namedCurve ?? ""];
    if (!namedCurve) throw new Error(`unsupported signing key curve ${key.asymmetricKeyDetails?.namedCurve}`);
    const privateKey = await crypto.subtle.importKey("pkcs8", pkcs8, { name: "ECDSA", namedCurve }, false, ["sign"]);
    return { certificate, privateKey, signingAlgorithm: { name: "ECDSA", hash: "SHA-256" } as EcdsaParams };
  }
  if (key.asymmetricKeyType === "rsa") {
    const privateKey = await crypto.subtle.importKey("pkcs8", pkcs8, { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" }, false, ["sign"]);
    return { certificate, privateKey, signingAlgorithm: { name: "RSASSA-PKCS1-v1_5" } };
  }
  throw new Error(`unsupported signing key type ${key.asymmetricKeyType}`);
}

/** kube's keyUsagesFromStrings's two tables, in x509's flags and OIDs (built when a request is signed: x509 loads lazily). */
function usageTables(): { keyUsages: Record<string, number>; extendedKeyUsages: Record<string, string> } {
  const { KeyUsageFlags: flags, ExtendedKeyUsage: extended } = x509();
  const keyUsages = {
    "signing": flags.digitalSignature,
    "digital signature": flags.digitalSignature,
    "content commitment": flags.nonRepudiation,
    "key encipherment": flags.keyEncipherment,
    "key agreement": flags.keyAgreement,
    "data encipherment": flags.dataEncipherment,
    "cert sign": flags.keyCertSign,
    "crl sign": flags.cRLSign,
    "encipher only": flags.encipherOnly,
    "decipher only": flags.decipherOnly,
  };
  const extendedKeyUsages = {
    "any": "2.5.29.37.0",
    "server auth": extended.serverAuth,
    "client auth": extended.clientAuth,
    "code signing": extended.codeSigning,
    "email protection": extended.emailProtection,
    "s/mime": extended.emailProtection,
    "ipsec end system": "1.3.6.1.5.5.7.3.5",
    "ipsec tunnel": "1.3.6.1.5.5.7.3.6",
    "ipsec user": "1.3.6.1.5.5.7.3.7",
    "timestamping": extended.timeStamping,
    "ocsp signing": extended.ocspSigning,
    "microsoft sgc": "1.3.6.1.4.1.311.10.3.3",
    "netscape sgc": "2.16.840.1.113730.4.1",
  };
  return { keyUsages, extendedKeyUsages };
}

/** kube's keyUsagesFromStrings. */
function usageExtensions(usages: readonly string[]): X509.Extension[] {
  const { keyUsages, extendedKeyUsages } = usageTables();
  const unrecognized = usages.filter((u) => !(u in keyUsages) && !(u in extendedKeyUsages));
  if (unrecognized.length > 0) throw new Error(`unrecognized usage values: [${unrecognized.map((u) => JSON.stringify(u)).join(" ")}]`);
  const flags = usages.reduce((all, u) => all | (keyUsages[u] ?? 0), 0);
  const extended = [...new Set(usages.map((u) => extendedKeyUsages[u]).filter((oid): oid is string => oid !== undefined))];
  const extensions: X509.Extension[] = [];
  if (flags !== 0) extensions.push(new (x509().KeyUsagesExtension)(flags, true));
  if (extended.length > 0) extensions.push(new (x509().ExtendedKeyUsageExtension)(extended));
  return extensions;
}

/** PermissiveSigningPolicy's validity window for `ttlMs`, capped by the CA's expiry. */
export function validity(ttlMs: number, caNotAfter: Date, now = Date.now()): { notBefore: Date; notAfter: Date } {
  const notBefore = new Date(now - BACKDATE_MS);
  let notAfter = new Date(ttlMs < SHORT_MS ? now + ttlMs : now + ttlMs - BACKDATE_MS);
  if (notAfter >= caNotAfter) notAfter = caNotAfter;
  if (notBefore >= caNotAfter) throw new Error(`the signer has expired: NotAfter=${caNotAfter.toISOString()}`);
  if (now >= caNotAfter.getTime()) {
    throw new Error(`refusing to sign a certificate that expired in the past: NotAfter=${caNotAfter.toISOString()}`);
  }
  return { notBefore, notAfter };
}

/** kube's CertificateAuthority.Sign: the issued certificate as PEM. */
export async function signRequest(
  ca: SigningAuthority,
  csr: ParsedCSR,
  options: { usages: readonly string[]; ttlMs: number },
): Promise<string> {
  const names: X509.JsonGeneralName[] = [
    ...csr.dnsNames.map((value) => ({ type: "dns" as const, value })),
    ...csr.ipAddresses.map((value) => ({ type: "ip" as const, value })),
    ...csr.emailAddresses.map((value) => ({ type: "email" as const, value })),
    ...csr.uris.map((value) => ({ type: "url" as const, value })),
  ];
  const extensions: X509.Extension[] = [new (x509().BasicConstraintsExtension)(false, undefined, true), ...usageExtensions(options.usages)];
  // As Go's CreateCertificate: the authority key id is the CA's subject key id, when it has one.
  const caKeyId = ca.certificate().getExtension(x509().SubjectKeyIdentifierExtension)?.keyId;
  if (caKeyId) extensions.push(new (x509().AuthorityKeyIdentifierExtension)(caKeyId));
  if (names.length > 0) extensions.push(new (x509().SubjectAlternativeNameExtension)(names));
  const certificate = await x509().X509CertificateGenerator.create({
    serialNumber: randomSerialNumber(),
    subject: csr.request.subjectName,
    issuer: ca.certificate().subjectName,
    ...validity(options.ttlMs, ca.certificate().notAfter),
    publicKey: csr.request.publicKey,
    signingKey: ca.privateKey,
    signingAlgorithm: ca.signingAlgorithm,
    extensions,
  });
  return certificate.toString("pem");
}

/** kube's signer.duration: the requested expirationSeconds when shorter than the maximum, never under 10 minutes. */
export function certificateTtlMs(maxMs: number, expirationSeconds: number | undefined): number {
  if (expirationSeconds === undefined) return maxMs;
  const requested = expirationSeconds * 1000;
  if (requested > maxMs) return maxMs;
  return Math.max(requested, 10 * 60 * 1000);
}
