/** Test fixtures of the certificate controllers: a signing CA on disk and CertificateSigningRequest bodies. */
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { KubeObject } from "../../api/types.ts";
import { makeCSR, requestField, type RequestSpec } from "../../api/certificates/testing.ts";
import { x509 } from "../../api/certificates/mod.ts";

/** A self-signed ECDSA CA written as PEM files; `days` sets its validity. */
export async function signingCA(days = 365): Promise<{ certFile: string; keyFile: string; certPem: string }> {
  const algorithm = { name: "ECDSA", namedCurve: "P-256", hash: "SHA-256" };
  const keys = await crypto.subtle.generateKey(algorithm, true, ["sign", "verify"]) as CryptoKeyPair;
  const certificate = await x509().X509CertificateGenerator.createSelfSigned({
    name: "CN=test-ca",
    keys,
    signingAlgorithm: algorithm,
    notBefore: new Date(Date.now() - 60_000),
    notAfter: new Date(Date.now() + days * 86_400_000),
    extensions: [
      new (x509().BasicConstraintsExtension)(true, undefined, true),
      await x509().SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  const dir = await mkdtemp(join(tmpdir(), "kubun-ca-"));
  const certPem = certificate.toString("pem");
  const keyPem = x509().PemConverter.encode(await crypto.subtle.exportKey("pkcs8", keys.privateKey), "PRIVATE KEY");
  await writeFile(join(dir, "ca.crt"), certPem);
  await writeFile(join(dir, "ca.key"), keyPem, { mode: 0o600 });
  return { certFile: join(dir, "ca.crt"), keyFile: join(dir, "ca.key"), certPem };
}

export async function csrObject(name: string, subject: RequestSpec, spec: Record<string, unknown>): Promise<KubeObject> {
  const { csrPem } = await makeCSR(subject);
  return { metadata: { name }, spec: { request: requestField(csrPem), ...spec } };
}

export const approved = { conditions: [{ type: "Approved", status: "True", reason: "Test", message: "" }] };
