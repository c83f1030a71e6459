/**
 * kube's value transformers for encryption at rest (k8s.io/apiserver/pkg/storage/value/encrypt), byte for byte:
 * - aescbc: a random 16-byte IV, then AES-CBC of the value with PKCS#7 padding (aes.NewCBCTransformer);
 * - aesgcm: a random 12-byte nonce, then AES-GCM of the value with the storage key as additional data
 *   (aes.NewGCMTransformer, authenticatedDataString);
 * - secretbox: a random 24-byte nonce, then NaCl secretbox (XSalsa20-Poly1305) of the value (secretbox.NewSecretboxTransformer).
 * Each provider's keys are tried under their own prefix `k8s:enc:<provider>:v1:<key name>:` (see prefix-transformers.ts).
 */
import { Buffer } from "node:buffer";
import { type CipherGCM, createCipheriv, createDecipheriv, type DecipherGCM, randomBytes } from "node:crypto";
import { xsalsa20poly1305 } from "@noble/ciphers/salsa.js";

export interface ValueTransformer {
  /** The stored bytes after the prefix → the value; throws when they do not decrypt. */
  fromStorage(data: Uint8Array, key: string): Uint8Array;
  toStorage(value: Uint8Array, key: string): Uint8Array;
}

const AES_BLOCK = 16;
const GCM_NONCE = 12;
const GCM_TAG = 16;
const SECRETBOX_NONCE = 24;
const SECRETBOX_OVERHEAD = 16;

const aesCipher = (key: Uint8Array, mode: "cbc" | "gcm") => `aes-${key.length * 8}-${mode}`;
const concat = (...parts: Uint8Array[]) => new Uint8Array(Buffer.concat(parts));
const tooShort = () => new Error("the stored data was shorter than the required size");

export function aescbc(secret: Uint8Array): ValueTransformer {
  return {
    toStorage(value) {
      const iv = randomBytes(AES_BLOCK);
      // node's default PKCS#7 padding is kube's: always 1..16 bytes of the pad length.
      const cipher = createCipheriv(aesCipher(secret, "cbc"), secret, iv);
      return concat(iv, cipher.update(value), cipher.final());
    },
    fromStorage(data) {
      if (data.length < AES_BLOCK) throw tooShort();
      const body = data.subarray(AES_BLOCK);
      if (body.length % AES_BLOCK !== 0) throw new Error("the stored data is not a multiple of the block size");
      const decipher = createDecipheriv(aesCipher(secret, "cbc"), secret, data.subarray(0, AES_BLOCK));
      decipher.setAutoPadding(false);
      const padded = concat(decipher.update(body), decipher.final());
      return unpadPkcs7(padded);
    },
  };
}

/** kube's PKCS#7 check in cbc.TransformFromStorage, with its errors. */
function unpadPkcs7(padded: Uint8Array): Uint8Array {
  const size = padded.at(-1) ?? 0;
  if (size === 0 || size > padded.length) throw new Error("invalid PKCS7 data (empty or not padded)");
  for (let i = padded.length - size; i < padded.length; i++) {
    if (padded[i] !== size) throw new Error("invalid padding on input");
  }
  return padded.subarray(0, padded.length - size);
}

export function aesgcm(secret: Uint8Array): ValueTransformer {
  return {
    toStorage(value, key) {
      const nonce = randomBytes(GCM_NONCE);
      const cipher = createCipheriv(aesCipher(secret, "gcm"), secret, nonce) as CipherGCM;
      cipher.setAAD(Buffer.from(key));
      return concat(nonce, cipher.update(value), cipher.final(), cipher.getAuthTag());
    },
    fromStorage(data, key) {
      if (data.length < GCM_NONCE) throw tooShort();
      if (data.length < GCM_NONCE + GCM_TAG) throw new Error("cipher: message authentication failed");
      const decipher = createDecipheriv(aesCipher(secret, "gcm"), secret, data.subarray(0, GCM_NONCE)) as DecipherGCM;
      decipher.setAAD(Buffer.from(key));
      decipher.setAuthTag(data.subarray(data.length - GCM_TAG));
      try {
        return concat(decipher.update(data.subarray(GCM_NONCE, data.length - GCM_TAG)), decipher.final());
      } catch {
        // Go's crypto/cipher wording for a tag that does not verify.
        throw new Error("cipher: message authentication failed");
      }
    },
  };
}

export function secretbox(secret: Uint8Array): ValueTransformer {
  return {
    toStorage(value) {
      const nonce = randomBytes(SECRETBOX_NONCE);
      return concat(nonce, xsalsa20poly1305(secret, nonce).encrypt(value));
    },
    fromStorage(data) {
      if (data.length < SECRETBOX_NONCE + SECRETBOX_OVERHEAD) throw tooShort();
      try {
        return xsalsa20poly1305(secret, data.subarray(0, SECRETBOX_NONCE)).decrypt(data.subarray(SECRETBOX_NONCE));
      } catch {
        throw new Error("output array was not large enough for encryption");
      }
    },
  };
}

export const ENCRYPTED_PREFIX = "k8s:enc:";

/** kube's identityTransformer: stores as is, and refuses to read what another provider encrypted. */
export const identity: ValueTransformer = {
  toStorage: (value) => value,
  fromStorage(data) {
    if (Buffer.from(data.subarray(0, ENCRYPTED_PREFIX.length)).toString("latin1") === ENCRYPTED_PREFIX) {
      throw new Error("identity transformer tried to read encrypted data");
    }
    return data;
  },
};
