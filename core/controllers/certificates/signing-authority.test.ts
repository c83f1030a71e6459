import { expect, test } from "bun:test";
import { generateKeyPairSync, X509Certificate } from "node:crypto";
import { parseCSR, x509 } from "../../api/certificates/mod.ts";
import { makeCSR } from "../../api/certificates/testing.ts";
import { certificateTtlMs, loadSigningAuthority, signRequest, validity } from "./signing-authority.ts";

const HOUR = 3_600_000;

test("validity() backdates the start 5 minutes and the end only for certificates of 8h or more (PermissiveSigningPolicy)", () => {
  const now = Date.UTC(2026, 0, 1);
  const caEnd = new Date(now + 1000 * HOUR);
  expect(validity(HOUR, caEnd, now)).toEqual({ notBefore: new Date(now - 300_000), notAfter: new Date(now + HOUR) });
  expect(validity(10 * HOUR, caEnd, now).notAfter).toEqual(new Date(now + 10 * HOUR - 300_000));
  expect(validity(2000 * HOUR, caEnd, now).notAfter).toEqual(caEnd);
  expect(() => validity(HOUR, new Date(now - 600_000), now)).toThrow("the signer has expired");
  expect(() => validity(HOUR, new Date(now - 1), now)).toThrow("refusing to sign a certificate that expired in the past");
});

test("certificateTtlMs() honours a shorter expirationSeconds, never under 10 minutes (signer.duration)", () => {
  expect(certificateTtlMs(8760 * HOUR, undefined)).toBe(8760 * HOUR);
  expect(certificateTtlMs(HOUR, 7200)).toBe(HOUR);
  expect(certificateTtlMs(8760 * HOUR, 1800)).toBe(1800_000);
  expect(certificateTtlMs(8760 * HOUR, 60)).toBe(600_000);
});

test("loadSigningAuthority() reads kubeadm-style SEC1 EC and PKCS#1 RSA keys and signs with them (--cluster-signing-key-file)", async () => {
  const cases = [
    {
      pair: generateKeyPairSync("ec", { namedCurve: "prime256v1" }),
      type: "sec1",
      import: { name: "ECDSA", namedCurve: "P-256" },
      sign: { name: "ECDSA", hash: "SHA-256" },
    },
    {
      pair: generateKeyPairSync("rsa", { modulusLength: 2048 }),
      type: "pkcs1",
      import: { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" },
      sign: { name: "RSASSA-PKCS1-v1_5" },
    },
  ] as const;
  for (const c of cases) {
    const keyPem = c.pair.privateKey.export({ format: "pem", type: c.type }).toString();
    const keys = {
      privateKey: await crypto.subtle.importKey("pkcs8", c.pair.privateKey.export({ format: "der", type: "pkcs8" }), c.import, true, [
        "sign",
      ]),
      publicKey: await crypto.subtle.importKey("spki", c.pair.publicKey.export({ format: "der", type: "spki" }), c.import, true, [
        "verify",
      ]),
    };
    const caPem = (await x509().X509CertificateGenerator.createSelfSigned({ name: "CN=kubeadm-ca", keys, signingAlgorithm: c.sign }))
      .toString("pem");
    const authority = await loadSigningAuthority(caPem, keyPem);
    const issued = await signRequest(authority, parseCSR((await makeCSR({ commonName: "u" })).csrPem), {
      usages: ["client auth"],
      ttlMs: HOUR,
    });
    expect(new X509Certificate(issued).verify(new X509Certificate(caPem).publicKey)).toBe(true);
  }
});

test("loadSigningAuthority() names the file it could not read, as kube's caProvider.setCA (error reading CA cert/key file)", async () => {
  const files = { certFile: "/etc/kubun/ca.crt", keyFile: "/etc/kubun/ca.key" };
  await expect(loadSigningAuthority("not a certificate", "not a key", files)).rejects.toThrow(
    /^error reading CA cert file "\/etc\/kubun\/ca\.crt": ./,
  );
  const keys = await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"]);
  const caPem = (await x509().X509CertificateGenerator.createSelfSigned({
    name: "CN=ca",
    keys,
    signingAlgorithm: { name: "ECDSA", hash: "SHA-256" },
  })).toString("pem");
  await expect(loadSigningAuthority(caPem, "not a key", files)).rejects.toThrow(/^error reading CA key file "\/etc\/kubun\/ca\.key": ./);
});
