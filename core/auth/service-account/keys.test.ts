import { expect, test } from "bun:test";
import { generateKeyPairSync } from "node:crypto";
import { mkdtemp, readFile, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadServiceAccountKeys } from "./keys.ts";

async function tempDir(): Promise<string> {
  return await mkdtemp(join(tmpdir(), "kubun-sa-keys-"));
}

test("loadServiceAccountKeys() generates sa.key once (mode 0600, ES256) and reuses it on the next start", async () => {
  const dataDir = await tempDir();
  const files = { dataDir, serviceAccountSigningKeyFile: "", serviceAccountKeyFile: [] };
  const first = await loadServiceAccountKeys(files);
  expect((await stat(join(dataDir, "sa.key"))).mode & 0o777).toBe(0o600);
  expect(first.signing.alg).toBe("ES256");
  const second = await loadServiceAccountKeys(files);
  expect(second.signing.kid).toBe(first.signing.kid);
  expect(second.verifying.map((k) => k.kid)).toEqual([first.signing.kid]);
});

test("a PKCS#1 RSA signing key file signs with RS256 and extra key files add verification keys", async () => {
  const dir = await tempDir();
  const rsa = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const ec = generateKeyPairSync("ec", { namedCurve: "secp384r1" });
  await writeFile(join(dir, "signing.pem"), rsa.privateKey.export({ type: "pkcs1", format: "pem" }));
  await writeFile(join(dir, "old.pub"), ec.publicKey.export({ type: "spki", format: "pem" }));
  const keys = await loadServiceAccountKeys({
    dataDir: dir,
    serviceAccountSigningKeyFile: join(dir, "signing.pem"),
    serviceAccountKeyFile: [join(dir, "old.pub")],
  });
  expect(keys.signing.alg).toBe("RS256");
  expect(keys.verifying.map((k) => k.alg)).toEqual(["RS256", "ES384"]);
  expect(keys.verifying[1]!.jwk).toMatchObject({ kty: "EC", crv: "P-384", use: "sig", alg: "ES384", kid: keys.verifying[1]!.kid });
  expect(keys.verifying[1]!.jwk.d).toBeUndefined();
  await expect(readFile(join(dir, "sa.key"))).rejects.toThrow();
});

test("a key file without any key is an error naming the file", async () => {
  const dir = await tempDir();
  await writeFile(join(dir, "empty.pem"), "nothing here");
  await expect(loadServiceAccountKeys({ dataDir: dir, serviceAccountSigningKeyFile: "", serviceAccountKeyFile: [join(dir, "empty.pem")] }))
    .rejects.toThrow(/empty\.pem: no public or private key found/);
});
