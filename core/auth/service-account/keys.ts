/**
 * The service account token keys (spec 5.2): the signing key (--service-account-signing-key-file, else `sa.key`
 * generated once in the data directory) and the verification keys (every --service-account-key-file plus the
 * signing key's public half). Key ids and algorithms are kube's: kid = base64url(sha256(PKIX DER)).
 */
import { createHash, createPublicKey, generateKeyPairSync, type KeyObject } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { importJWK, type JWK } from "jose";
import { privateKeyFromPem, publicKeysFromPem } from "./pem-keys.ts";

export interface SigningKey {
  kid: string;
  alg: string;
  key: CryptoKey;
}

export interface VerificationKey {
  kid: string;
  alg: string;
  key: CryptoKey;
  /** The public JWK as the JWKS document lists it. */
  jwk: JWK;
}

export interface ServiceAccountKeys {
  signing: SigningKey;
  verifying: VerificationKey[];
}

export interface KeyFiles {
  dataDir: string;
  serviceAccountSigningKeyFile: string;
  serviceAccountKeyFile: string[];
}

const CURVE_ALGORITHMS: Record<string, string> = { "P-256": "ES256", "P-384": "ES384", "P-521": "ES512" };

function algorithmOf(publicKey: KeyObject): string {
  if (publicKey.asymmetricKeyType === "rsa") return "RS256";
  const curve = publicKey.export({ format: "jwk" }).crv;
  const alg = publicKey.asymmetricKeyType === "ec" && curve ? CURVE_ALGORITHMS[curve] : undefined;
  if (!alg) {
    throw new Error(
      `unsupported service account key type ${publicKey.asymmetricKeyType}${curve ? ` ${curve}` : ""}: use RSA or ECDSA P-256/384/521`,
    );
  }
  return alg;
}

export function keyId(publicKey: KeyObject): string {
  return createHash("sha256").update(publicKey.export({ type: "spki", format: "der" })).digest("base64url");
}

async function verificationKey(publicKey: KeyObject): Promise<VerificationKey> {
  const kid = keyId(publicKey);
  const alg = algorithmOf(publicKey);
  const jwk: JWK = { use: "sig", ...publicKey.export({ format: "jwk" }), kid, alg };
  return { kid, alg, key: (await importJWK(jwk, alg)) as CryptoKey, jwk };
}

/** Reads the data directory's `sa.key`, creating it (EC P-256, mode 0600) on first start. */
async function generatedSigningKeyPem(dataDir: string): Promise<string> {
  const path = join(dataDir, "sa.key");
  const existing = await readFile(path, "utf8").catch((e: NodeJS.ErrnoException) => (e.code === "ENOENT" ? undefined : Promise.reject(e)));
  if (existing !== undefined) return existing;
  const { privateKey } = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
  const pem = privateKey.export({ type: "pkcs8", format: "pem" }).toString();
  // "wx": when two starts race, the second reads the first one's key instead of replacing it.
  await writeFile(path, pem, { mode: 0o600, flag: "wx" }).catch((
    e: NodeJS.ErrnoException,
  ) => (e.code === "EEXIST" ? undefined : Promise.reject(e)));
  return await readFile(path, "utf8");
}

export async function loadServiceAccountKeys(files: KeyFiles): Promise<ServiceAccountKeys> {
  const signingSource = files.serviceAccountSigningKeyFile || join(files.dataDir, "sa.key");
  const signingPem = files.serviceAccountSigningKeyFile
    ? await readFile(files.serviceAccountSigningKeyFile, "utf8")
    : await generatedSigningKeyPem(files.dataDir);
  const signingPrivate = privateKeyFromPem(signingPem, signingSource);
  const signingPublic = await verificationKey(createPublicKey(signingPrivate));
  const extra = await Promise.all(files.serviceAccountKeyFile.map(async (path) => publicKeysFromPem(await readFile(path, "utf8"), path)));
  const verifying = [signingPublic];
  for (const publicKey of extra.flat()) {
    const key = await verificationKey(publicKey);
    if (!verifying.some((known) => known.kid === key.kid)) verifying.push(key);
  }
  const privateJwk = signingPrivate.export({ format: "jwk" });
  const signing = { kid: signingPublic.kid, alg: signingPublic.alg, key: (await importJWK(privateJwk, signingPublic.alg)) as CryptoKey };
  return { signing, verifying };
}
