/** Encryption at rest (kube's --encryption-provider-config): providers, the configuration file, the storage decorator. */
export { encryptingStorage } from "./encrypting-storage.ts";
export { encryptionMetrics } from "./metrics.ts";
export { encryptionConfigSource } from "./reload.ts";
export type { EncryptionConfigSource } from "./reload.ts";
export { groupResourceOfKey } from "./encrypting-storage.ts";
export { PrefixTransformers } from "./prefix-transformers.ts";
export type { KmsPlugin, KmsPluginFactory, KmsPluginImporter } from "./kms/plugin-module.ts";
export { GrpcError } from "./kms/grpc-error.ts";
