/** Builds the admission chain from loaded factories: each gets its logger, client and configuration section. */
import { basename, extname } from "node:path";
import { pluginLogger } from "../auth/plugin-context.ts";
import type { ReadOnlyClient } from "../api/client.ts";
import type { Authorizer } from "../auth/authorizer.ts";
import type { Catalog } from "../registry/catalog.ts";
import type { Registry } from "../registry/registry.ts";
import type { Registry as MetricsRegistry } from "prom-client";
import type { ServerConfig } from "../config/mod.ts";
import { ConfigFileError } from "../config/mod.ts";
import { AdmissionChain } from "./chain.ts";
import type { PluginConfigSection } from "./config-file.ts";
import type { AdmissionPluginFactory, BuiltInAdmissionFactory } from "./types.ts";

export type LoadedAdmissionPlugin =
  | { builtIn: true; name: string; factory: BuiltInAdmissionFactory }
  | { builtIn: false; /** The module path from the flag. */ name: string; factory: AdmissionPluginFactory };

export interface AdmissionServices {
  config: ServerConfig;
  registry: Registry;
  catalog: Catalog;
  client: ReadOnlyClient;
  /** The server's /metrics registry (ApiMetrics.registry). */
  metricsRegistry?: MetricsRegistry;
  /** The server's authorizer, handed to built-in plugins. */
  authorizer: Authorizer;
  /** Configuration sections by plugin name (--admission-control-config-file). */
  sections: Map<string, PluginConfigSection>;
}

export async function buildAdmissionChain(plugins: readonly LoadedAdmissionPlugin[], services: AdmissionServices): Promise<AdmissionChain> {
  const built = [];
  for (const plugin of plugins) {
    const shared = { config: services.config, client: services.client, log: pluginLogger(`admission ${plugin.name}`) };
    // A custom plugin's section is found by its path as given or by its file name without extension.
    const section = services.sections.get(plugin.name) ??
      (plugin.builtIn ? undefined : services.sections.get(basename(plugin.name, extname(plugin.name))));
    const pluginConfig = section?.configuration;
    try {
      if (plugin.builtIn) {
        built.push(
          await plugin.factory({
            ...shared,
            registry: services.registry,
            catalog: services.catalog,
            metricsRegistry: services.metricsRegistry,
            authorizer: services.authorizer,
            pluginConfig,
          }),
        );
      } else {
        built.push(await plugin.factory({ ...shared, pluginConfig }));
      }
    } catch (error) {
      // A configuration the plugin refuses is reported with the file and field it came from.
      if (section && error instanceof ConfigFileError) throw new ConfigFileError(`${section.source}: ${error.message}`, { cause: error });
      throw error;
    }
  }
  return new AdmissionChain(built);
}
