/** Encryption at rest (kube's --encryption-provider-config): providers, the configuration file, the storage decorator. */
export { type EncryptionPlan, readEncryptionConfiguration } from "./config.ts";
export { encryptingStorage } from "./encrypting-storage.ts";
export { encryptionMetrics } from "./metrics.ts";
export { type EncryptionConfigSource, encryptionConfigSource } from "./reload.ts";
