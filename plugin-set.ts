/**
 * The plugins the flags name, resolved from the built-in catalogs or loaded by path: authenticators in chain
 * order, authorizers in --authorization-mode order and the admission chain; and the importer of the KMS plugin
 * modules an --encryption-provider-config names (`endpoint: module://...`). main.ts and the in-process test
 * server start from the same set.
 */
import { loadAdmissionPlugins } from "./admission-plugins/mod.ts";
import { AUTHENTICATORS, AUTHORIZERS } from "./auth-plugins/mod.ts";
import type { AuthenticatorFactory } from "./core/auth/authentication.ts";
import type { ServerConfig } from "./core/config/mod.ts";
import type { KmsPluginFactory } from "./core/storage/encryption/mod.ts";
import type { RunOptions } from "./core/server/run.ts";
import { importPluginModule, loadPlugin } from "./plugins/loader.ts";

export async function loadPluginSet(
  config: ServerConfig,
): Promise<Required<Pick<RunOptions, "authenticators" | "authorizers" | "admissionPlugins" | "importKmsPlugin">>> {
  const authenticators = [
    ...(await Promise.all(AUTHENTICATORS.filter((entry) => entry.enabled(config)).map((entry) => entry.load()))),
    ...(await Promise.all(config.authenticationPlugin.map((path) => importPluginModule<AuthenticatorFactory>(path, "authentication")))),
  ];
  const authorizers = await Promise.all(config.authorizationMode.map((mode) => loadPlugin(mode, AUTHORIZERS, "authorization")));
  return {
    authenticators,
    authorizers,
    admissionPlugins: await loadAdmissionPlugins(config),
    importKmsPlugin: (path) => importPluginModule<KmsPluginFactory>(path, "kms"),
  };
}
