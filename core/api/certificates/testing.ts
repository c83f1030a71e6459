/** Test helpers: certificate requests made in process, as openssl or a kubelet would send them. */
import { Buffer } from "node:buffer";
import type * as X509 from "@peculiar/x509";
import { x509 } from "../../runtime/x509.ts";

export interface RequestSpec {
  commonName: string;
  organizations?: string[];
  dnsNames?: string[];
  ipAddresses?: string[];
  /** RSA 2048 instead of ECDSA P-256. */
  rsa?: boolean;
}

/** A PEM CERTIFICATE REQUEST signed with a fresh key, and the key (PKCS#8 PEM). */
export async function makeCSR(spec: RequestSpec): Promise<{ csrPem: string; keyPem: string }> {
  const algorithm = spec.rsa
    ? { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256", publicExponent: new Uint8Array([1, 0, 1]), modulusLength: 2048 }
    : { name: "ECDSA", namedCurve: "P-256", hash: "SHA-256" };
  const keys = await globalThis.crypto.subtle.generateKey(algorithm, true, ["sign", "verify"]) as CryptoKeyPair;
  const names: X509.JsonGeneralName[] = [
    ...(spec.dnsNames ?? []).map((value) => ({ type: "dns" as const, value })),
    ...(spec.ipAddresses ?? []).map((value) => ({ type: "ip" as const, value })),
  ];
  const request = await x509().Pkcs10CertificateRequestGenerator.create({
    name: [...(spec.organizations ?? []).map((o) => ({ O: [o] })), { CN: [spec.commonName] }],
    keys,
    signingAlgorithm: algorithm,
    extensions: names.length > 0 ? [new (x509().SubjectAlternativeNameExtension)(names)] : [],
  });
  const der = await globalThis.crypto.subtle.exportKey("pkcs8", keys.privateKey);
  return { csrPem: request.toString("pem"), keyPem: x509().PemConverter.encode(der, "PRIVATE KEY") };
}

/** spec.request as the API carries it: base64 of the PEM text. */
export function requestField(csrPem: string): string {
  return Buffer.from(csrPem).toString("base64");
}
