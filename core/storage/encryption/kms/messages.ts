/**
 * The protobuf messages of kube's KMS plugin gRPC API (k8s.io/kms apis v1beta1 and v2alpha1 of 1.26) and of the
 * KMS v2 stored value (apiserver envelope/kmsv2/v2alpha1 EncryptedObject), as protobufjs/light types.
 */
import protobuf from "protobufjs/light.js";

const { Field, MapField, Type } = protobuf;

function message(name: string, fields: [name: string, id: number, type: string][], maps: [string, number][] = []) {
  const type = new Type(name);
  for (const [field, id, kind] of fields) type.add(new Field(field, id, kind));
  for (const [field, id] of maps) type.add(new MapField(field, id, "string", "bytes"));
  return type;
}

function namespace(name: string, types: protobuf.Type[]): Record<string, protobuf.Type> {
  const root = new protobuf.Root().define(name);
  for (const type of types) root.add(type);
  return Object.fromEntries(types.map((type) => [type.name, type]));
}

/** v1beta1: `KeyManagementService` with Version, Encrypt and Decrypt. */
export const V1 = namespace("v1beta1", [
  message("VersionRequest", [["version", 1, "string"]]),
  message("VersionResponse", [["version", 1, "string"], ["runtimeName", 2, "string"], ["runtimeVersion", 3, "string"]]),
  message("DecryptRequest", [["version", 1, "string"], ["cipher", 2, "bytes"]]),
  message("DecryptResponse", [["plain", 1, "bytes"]]),
  message("EncryptRequest", [["version", 1, "string"], ["plain", 2, "bytes"]]),
  message("EncryptResponse", [["cipher", 1, "bytes"]]),
]);

/** v2alpha1: `KeyManagementService` with Status, Encrypt (with a request uid) and Decrypt (with key ID and annotations). */
export const V2 = namespace("v2alpha1", [
  message("StatusRequest", []),
  message("StatusResponse", [["version", 1, "string"], ["healthz", 2, "string"], ["keyId", 3, "string"]]),
  message("DecryptRequest", [["ciphertext", 1, "bytes"], ["uid", 2, "string"], ["keyId", 3, "string"]], [["annotations", 4]]),
  message("DecryptResponse", [["plaintext", 1, "bytes"]]),
  message("EncryptRequest", [["plaintext", 1, "bytes"], ["uid", 2, "string"]]),
  message("EncryptResponse", [["ciphertext", 1, "bytes"], ["keyId", 2, "string"]], [["annotations", 3]]),
  message("EncryptedObject", [["encryptedData", 1, "bytes"], ["keyID", 2, "string"], ["encryptedDEK", 3, "bytes"]], [[
    "annotations",
    4,
  ]]),
]);

/** Encodes a plain object as the message. */
export function encode(type: protobuf.Type, value: Record<string, unknown>): Uint8Array {
  return type.encode(type.fromObject(value)).finish();
}

/** Decodes a message into a plain object with every field present (bytes as Uint8Array). */
export function decode<T>(type: protobuf.Type, bytes: Uint8Array): T {
  return type.toObject(type.decode(bytes), { defaults: true }) as T;
}
