/**
 * Certificate primitives on Web Crypto (ECDSA P-256, SHA-256): a self-signed CA and leaf
 * certificates it signs. PEM in, PEM out, so callers never handle ASN.1.
 */
import { X509Certificate } from "node:crypto";
import { isIP } from "node:net";
import type * as X509 from "@peculiar/x509";
import { randomSerialNumber } from "../api/certificates/mod.ts";
import { x509 } from "../runtime/x509.ts";

const KEY_ALGORITHM: EcKeyGenParams = { name: "ECDSA", namedCurve: "P-256" };
const SIGNING_ALGORITHM: EcdsaParams = { name: "ECDSA", hash: "SHA-256" };
const DAY_MS = 24 * 60 * 60 * 1000;
// Backdated so a client whose clock runs slightly behind still accepts a fresh certificate.
const CLOCK_SKEW_MS = 5 * 60 * 1000;

export interface CertificateAuthority {
  certificate: X509.X509Certificate;
  privateKey: CryptoKey;
}

export interface IssuedCertificate {
  certPem: string;
  keyPem: string;
}

export interface ClientCertificateOptions {
  commonName: string;
  organizations?: string[];
  days: number;
}

export interface ServingCertificateOptions {
  commonName: string;
  /** DNS names and IP addresses (v4 or v6) the certificate is valid for. */
  hosts: string[];
  days: number;
}

export async function createCertificateAuthority(
  commonName: string,
  options: { days: number },
): Promise<CertificateAuthority & IssuedCertificate> {
  const keys = await generateKeyPair();
  const certificate = await x509().X509CertificateGenerator.createSelfSigned({
    serialNumber: randomSerialNumber(),
    name: [{ CN: [commonName] }],
    ...validity(options.days),
    keys,
    signingAlgorithm: SIGNING_ALGORITHM,
    extensions: [
      new (x509().BasicConstraintsExtension)(true, undefined, true),
      new (x509().KeyUsagesExtension)(
        x509().KeyUsageFlags.keyCertSign | x509().KeyUsageFlags.cRLSign | x509().KeyUsageFlags.digitalSignature,
        true,
      ),
      await x509().SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return {
    certificate,
    privateKey: keys.privateKey,
    certPem: certificate.toString("pem"),
    keyPem: await exportPrivateKeyPem(keys.privateKey),
  };
}

export function issueClientCertificate(ca: CertificateAuthority, options: ClientCertificateOptions): Promise<IssuedCertificate> {
  // One RDN per organization, as Go's crypto/x509 writes them (not one multi-valued RDN).
  const subject: X509.JsonName = [...(options.organizations ?? []).map((organization) => ({ O: [organization] })), {
    CN: [options.commonName],
  }];
  return issueLeaf(ca, { subject, days: options.days, usage: x509().ExtendedKeyUsage.clientAuth, names: [] });
}

export function issueServingCertificate(ca: CertificateAuthority, options: ServingCertificateOptions): Promise<IssuedCertificate> {
  const names = options.hosts.map((host): X509.JsonGeneralName => ({ type: isIP(host) ? "ip" : "dns", value: host }));
  return issueLeaf(ca, { subject: [{ CN: [options.commonName] }], days: options.days, usage: x509().ExtendedKeyUsage.serverAuth, names });
}

interface LeafSpec {
  subject: X509.JsonName;
  days: number;
  usage: X509.ExtendedKeyUsage;
  names: X509.JsonGeneralName[];
}

async function issueLeaf(ca: CertificateAuthority, spec: LeafSpec): Promise<IssuedCertificate> {
  const keys = await generateKeyPair();
  const extensions: X509.Extension[] = [
    new (x509().BasicConstraintsExtension)(false, undefined, true),
    new (x509().KeyUsagesExtension)(x509().KeyUsageFlags.digitalSignature | x509().KeyUsageFlags.keyEncipherment, true),
    new (x509().ExtendedKeyUsageExtension)([spec.usage]),
    await x509().AuthorityKeyIdentifierExtension.create(ca.certificate.publicKey),
  ];
  if (spec.names.length > 0) extensions.push(new (x509().SubjectAlternativeNameExtension)(spec.names));
  const certificate = await x509().X509CertificateGenerator.create({
    serialNumber: randomSerialNumber(),
    subject: spec.subject,
    issuer: ca.certificate.subjectName,
    ...validity(spec.days),
    publicKey: keys.publicKey,
    signingKey: ca.privateKey,
    signingAlgorithm: SIGNING_ALGORITHM,
    extensions,
  });
  return { certPem: certificate.toString("pem"), keyPem: await exportPrivateKeyPem(keys.privateKey) };
}

export async function loadCertificateAuthority(certPem: string, keyPem: string): Promise<CertificateAuthority> {
  const certificate = new (x509().X509Certificate)(certPem);
  const der = x509().PemConverter.decodeFirst(keyPem);
  const privateKey = await globalThis.crypto.subtle.importKey("pkcs8", der, KEY_ALGORITHM, true, ["sign"]);
  return { certificate, privateKey };
}

/*
 * The checks of existing certificates at every start read them with node:crypto (native, under Bun and Deno alike):
 * parsing them with @peculiar/x509 on a cold start cost ~30 ms.
 */

/** Whether a certificate's subjectAltName names every host: IP addresses compared as addresses, DNS names as text. */
export function namesEveryHost(certPem: string, hosts: string[]): boolean {
  const certificate = new X509Certificate(certPem);
  const dnsNames = new Set(
    (certificate.subjectAltName ?? "").split(", ").filter((name) => name.startsWith("DNS:")).map((name) => name.slice("DNS:".length)),
  );
  return hosts.every((host) => (isIP(host) ? certificate.checkIP(host) !== undefined : dnsNames.has(host)));
}

/** Whether the certificate stays valid for at least `marginDays` more days and bears the signature of `caPem`'s key. */
export function isUsableLeaf(certPem: string, caPem: string, marginDays: number): boolean {
  const certificate = new X509Certificate(certPem);
  if (Date.parse(certificate.validTo) - Date.now() < marginDays * DAY_MS) return false;
  return certificate.verify(new X509Certificate(caPem).publicKey);
}

function generateKeyPair(): Promise<CryptoKeyPair> {
  return globalThis.crypto.subtle.generateKey(KEY_ALGORITHM, true, ["sign", "verify"]) as Promise<CryptoKeyPair>;
}

async function exportPrivateKeyPem(key: CryptoKey): Promise<string> {
  const der = await globalThis.crypto.subtle.exportKey("pkcs8", key);
  return x509().PemConverter.encode(der, "PRIVATE KEY");
}

function validity(days: number): { notBefore: Date; notAfter: Date } {
  const now = Date.now();
  return { notBefore: new Date(now - CLOCK_SKEW_MS), notAfter: new Date(now + days * DAY_MS) };
}
