/**
 * A KMS provider written as a TypeScript module, kubun's addition to kube's unix-socket plugins: the
 * EncryptionConfiguration names it as `endpoint: module:///abs/path/to/kms.ts` (or a path relative to the working
 * directory, `module://./kms.ts`). The module default-exports a factory (plugins/sdk.ts `defineKmsPlugin`) that
 * returns the v2 plugin calls; the server uses them for either apiVersion, with the provider's timeout.
 */
import { type KmsV1Service, type KmsV2DecryptRequest, type KmsV2EncryptResponse, type KmsV2Service, V2_API_VERSION } from "./service.ts";
import { withTimeout } from "../../../runtime/with-timeout.ts";

export interface KmsPlugin {
  /** kube's StatusResponse: healthz "ok" when healthy, and the current key's ID. */
  status(): Promise<{ healthz: string; keyID: string }>;
  encrypt(plaintext: Uint8Array, uid: string): Promise<{ ciphertext: Uint8Array; keyID: string; annotations?: Record<string, Uint8Array> }>;
  decrypt(request: KmsV2DecryptRequest, uid: string): Promise<Uint8Array>;
  close?(): void;
}

export type KmsPluginFactory = (options: { name: string; apiVersion: "v1" | "v2" }) => KmsPlugin | Promise<KmsPlugin>;

/** Imports a plugin module by path and returns its default export (main.ts hands in plugins/loader.ts's importer). */
export type KmsPluginImporter = (path: string) => Promise<KmsPluginFactory>;

export const MODULE_SCHEME = "module://";

export interface ModuleEndpoint {
  endpoint: string;
  name: string;
  timeoutMs: number;
  importer: KmsPluginImporter;
}

async function loadPlugin({ endpoint, name, importer }: ModuleEndpoint, apiVersion: "v1" | "v2"): Promise<KmsPlugin> {
  const factory = await importer(endpoint.slice(MODULE_SCHEME.length));
  return await factory({ name, apiVersion });
}

export async function moduleKmsV2Service(module: ModuleEndpoint): Promise<KmsV2Service> {
  const plugin = await loadPlugin(module, "v2");
  const { timeoutMs } = module;
  return {
    status: async () => ({ version: V2_API_VERSION, ...(await withTimeout(plugin.status(), timeoutMs)) }),
    encrypt: async (uid, plaintext): Promise<KmsV2EncryptResponse> => {
      const response = await withTimeout(plugin.encrypt(plaintext, uid), timeoutMs);
      return { annotations: {}, ...response };
    },
    decrypt: (uid, request) => withTimeout(plugin.decrypt(request, uid), timeoutMs),
    close: () => plugin.close?.(),
  };
}

export async function moduleKmsV1Service(module: ModuleEndpoint): Promise<KmsV1Service> {
  const plugin = await loadPlugin(module, "v1");
  const { timeoutMs } = module;
  return {
    encrypt: async (plain) => (await withTimeout(plugin.encrypt(plain, crypto.randomUUID()), timeoutMs)).ciphertext,
    decrypt: (cipher) => withTimeout(plugin.decrypt({ ciphertext: cipher, keyID: "", annotations: {} }, crypto.randomUUID()), timeoutMs),
    close: () => plugin.close?.(),
  };
}
