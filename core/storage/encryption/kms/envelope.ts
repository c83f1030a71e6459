/**
 * kube 1.26's KMS envelope transformers: each write gets a fresh 32-byte DEK, which the KMS plugin encrypts; the
 * value is sealed with AES-GCM under the DEK (the storage key as authenticated data) and stored beside the
 * encrypted DEK. DEKs are cached by their encrypted form, so reads of values written here, or read before, need
 * no plugin call (and stay synchronous); a cache miss asks the plugin to decrypt the DEK.
 * - v1 (envelope.go): uint16 big-endian length of the encrypted DEK, the encrypted DEK, the sealed value; reads
 *   try AES-GCM, then AES-CBC for values written by kube 1.24 (encryptionconfig's unionTransformers).
 * - v2 (kmsv2/envelope.go): the protobuf EncryptedObject {encryptedData, keyID, encryptedDEK, annotations},
 *   checked on write and read as kube's validateEncryptedObject does.
 */
import { Buffer } from "node:buffer";
import { randomBytes, randomUUID } from "node:crypto";
import { aescbc, aesgcm, type ValueTransformer } from "../providers.ts";
import type { StorageTransformer } from "../prefix-transformers.ts";
import { DekCache } from "./dek-cache.ts";
import type * as Messages from "./messages.ts";
import type { KmsV1Service, KmsV2Service } from "./service.ts";
import { lazyModule } from "../../../runtime/lazy-module.ts";

/** The protobuf messages (and protobufjs) are loaded by the first KMS v2 value, not by every server at start. */
const messages = lazyModule<typeof Messages>(() => require("./messages.ts"), import.meta.url, "./messages.ts");

const DEK_SIZE = 32;

/** kube's unionTransformers{GCM, CBC}: the first that reads the value wins; all errors when none does. */
function gcmThenCbc(dek: Uint8Array): ValueTransformer {
  const gcm = aesgcm(dek);
  const cbc = aescbc(dek);
  return {
    toStorage: (value, key) => gcm.toStorage(value, key),
    fromStorage(data, key) {
      try {
        return gcm.fromStorage(data, key);
      } catch (gcmError) {
        try {
          return cbc.fromStorage(data, key);
        } catch (cbcError) {
          // utilerrors.NewAggregate's wording for two errors.
          throw new Error(`[${(gcmError as Error).message}, ${(cbcError as Error).message}]`);
        }
      }
    },
  };
}

export function kmsV1Envelope(service: KmsV1Service, cacheSize: number): StorageTransformer {
  const cache = new DekCache<ValueTransformer>(cacheSize);
  return {
    async toStorage(value, key) {
      const dek = new Uint8Array(randomBytes(DEK_SIZE));
      const encryptedDek = await service.encrypt(dek);
      const transformer = gcmThenCbc(dek);
      cache.add(encryptedDek, transformer);
      const length = Buffer.alloc(2);
      length.writeUInt16BE(encryptedDek.length);
      return new Uint8Array(Buffer.concat([length, encryptedDek, transformer.toStorage(value, key)]));
    },
    fromStorage(data, key) {
      const length = data.length >= 2 ? (data[0]! << 8) | data[1]! : -1;
      if (length < 0 || data.length < 2 + length) {
        throw new Error("invalid data encountered by envelope transformer: failed to read uint16 length prefixed data");
      }
      const encryptedDek = data.subarray(2, 2 + length);
      const sealed = data.subarray(2 + length);
      const cached = cache.get(encryptedDek);
      if (cached) return cached.fromStorage(sealed, key);
      return service.decrypt(encryptedDek).then((dek) => {
        const transformer = gcmThenCbc(dek);
        cache.add(encryptedDek, transformer);
        return transformer.fromStorage(sealed, key);
      });
    },
  };
}

interface EncryptedObject {
  encryptedData: Uint8Array;
  keyID: string;
  encryptedDEK: Uint8Array;
  annotations: Record<string, Uint8Array>;
}

const MAX_ANNOTATIONS = 32 * 1024;
const MAX_KEY_ID = 1024;
const MAX_ENCRYPTED_DEK = 1024;
/** apimachinery's IsFullyQualifiedDomainName: at least two DNS labels, lower case, at most 253 characters. */
const FULLY_QUALIFIED = /^(?=.{1,253}$)[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)+$/;

/** kube's validateEncryptedObject, with its messages. */
function validateEncryptedObject(object: EncryptedObject): void {
  if (object.encryptedData.length === 0) throw new Error("encrypted data is empty");
  const dek = object.encryptedDEK.length;
  if (dek === 0) throw new Error("failed to validate encrypted DEK: encrypted DEK is empty");
  if (dek > MAX_ENCRYPTED_DEK) {
    throw new Error(`failed to validate encrypted DEK: encrypted DEK is ${dek} bytes, which exceeds the max size of ${MAX_ENCRYPTED_DEK}`);
  }
  const keyID = Buffer.byteLength(object.keyID);
  if (keyID === 0) throw new Error("failed to validate key id: keyID is empty");
  if (keyID > MAX_KEY_ID) {
    throw new Error(`failed to validate key id: keyID is ${keyID} bytes, which exceeds the max size of ${MAX_KEY_ID}`);
  }
  let size = 0;
  for (const [name, value] of Object.entries(object.annotations)) {
    if (!FULLY_QUALIFIED.test(name)) {
      throw new Error(
        `failed to validate annotations: annotations: Invalid value: ${
          JSON.stringify(name)
        }: should be a domain with at least two segments separated by dots`,
      );
    }
    size += Buffer.byteLength(name) + value.length;
  }
  if (size > MAX_ANNOTATIONS) {
    throw new Error(
      `failed to validate annotations: total size of annotations is ${size}, which exceeds the max size of ${MAX_ANNOTATIONS}`,
    );
  }
}

export function kmsV2Envelope(service: KmsV2Service, cacheSize: number): StorageTransformer {
  const cache = new DekCache<ValueTransformer>(cacheSize);
  return {
    async toStorage(value, key) {
      const dek = new Uint8Array(randomBytes(DEK_SIZE));
      const response = await service.encrypt(randomUUID(), dek).catch((error: Error) => {
        throw new Error(`failed to encrypt DEK, error: ${error.message}`, { cause: error });
      });
      const transformer = aesgcm(dek);
      cache.add(response.ciphertext, transformer);
      const object: EncryptedObject = {
        encryptedData: transformer.toStorage(value, key),
        keyID: response.keyID,
        encryptedDEK: response.ciphertext,
        annotations: response.annotations,
      };
      validateEncryptedObject(object);
      const { encode, V2 } = messages();
      return encode(V2.EncryptedObject!, { ...object });
    },
    fromStorage(data, key) {
      let object: EncryptedObject;
      try {
        const { decode, V2 } = messages();
        object = decode<EncryptedObject>(V2.EncryptedObject!, data);
      } catch (error) {
        throw new Error(`proto: ${(error as Error).message}`);
      }
      validateEncryptedObject(object);
      const cached = cache.get(object.encryptedDEK);
      if (cached) return cached.fromStorage(object.encryptedData, key);
      const request = { ciphertext: object.encryptedDEK, keyID: object.keyID, annotations: object.annotations };
      return service.decrypt(randomUUID(), request).then(
        (dek) => {
          const transformer = aesgcm(dek);
          cache.add(object.encryptedDEK, transformer);
          return transformer.fromStorage(object.encryptedData, key);
        },
        (error: Error) => {
          throw new Error(`failed to decrypt DEK, error: ${error.message}`, { cause: error });
        },
      );
    },
  };
}
