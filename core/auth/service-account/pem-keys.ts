/**
 * Reads the keys of --service-account-key-file and --service-account-signing-key-file: PEM files holding RSA or
 * ECDSA private keys (PKCS#1, SEC1, PKCS#8), public keys (PKIX, PKCS#1) or certificates, several blocks per file.
 */
import { createPrivateKey, createPublicKey, type KeyObject, X509Certificate } from "node:crypto";

const PEM_BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----[\s\S]+?-----END \1-----/g;

function keysOfBlock(label: string, block: string): { publicKey: KeyObject; privateKey?: KeyObject } | undefined {
  if (label === "CERTIFICATE") return { publicKey: new X509Certificate(block).publicKey };
  if (label.endsWith("PRIVATE KEY")) {
    const privateKey = createPrivateKey(block);
    return { publicKey: createPublicKey(privateKey), privateKey };
  }
  if (label.endsWith("PUBLIC KEY")) return { publicKey: createPublicKey(block) };
  // Other blocks (EC PARAMETERS before an EC key) carry no key.
  return undefined;
}

/** Every public key in the PEM text (private keys give their public half). */
export function publicKeysFromPem(pem: string, source: string): KeyObject[] {
  const keys = [...pem.matchAll(PEM_BLOCK)].flatMap(([block, label]) => keysOfBlock(label!, block)?.publicKey ?? []);
  if (keys.length === 0) throw new Error(`${source}: no public or private key found`);
  return keys;
}

/** The first private key in the PEM text. */
export function privateKeyFromPem(pem: string, source: string): KeyObject {
  for (const [block, label] of pem.matchAll(PEM_BLOCK)) {
    const privateKey = keysOfBlock(label!, block)?.privateKey;
    if (privateKey) return privateKey;
  }
  throw new Error(`${source}: no private key found`);
}
