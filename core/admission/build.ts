/**
 * Builds the admission chain from loaded plugins: each gets its logger, client and configuration section.
 * Built-in and baked plugins run in-process; a custom plugin given by module path runs in its own pool of workers
 * (isolation/) and is reloaded when its file changes. Custom plugins, baked or not, follow the validationActions
 * of their section.
 */
import { basename, extname } from "node:path";
import { type PluginLogger, pluginLogger } from "../auth/plugin-context.ts";
import type { ReadOnlyClient } from "../api/client.ts";
import type { Authorizer } from "../auth/authorizer.ts";
import type { Catalog } from "../registry/catalog.ts";
import type { Registry } from "../registry/registry.ts";
import type { Registry as MetricsRegistry } from "prom-client";
import type { ServerConfig } from "../config/mod.ts";
import { ConfigFileError } from "../config/mod.ts";
import { AdmissionChain, type Violation } from "./chain.ts";
import type { PluginConfigSection } from "./config-file.ts";
import { readValidationActions, type ValidationAction } from "./enforcement.ts";
import { IsolatedPlugin } from "./isolation/isolated-plugin.ts";
import { WorkerPool } from "./isolation/pool.ts";
import { reloadOnChange } from "./isolation/reload.ts";
import { AdmissionMetrics } from "./metrics.ts";
import type { AdmissionPlugin, AdmissionPluginFactory, BuiltInAdmissionFactory } from "./types.ts";

/** Workers per custom plugin: a call stuck in one leaves the other serving. */
export const WORKERS_PER_PLUGIN = 2;
/** Calls after which a custom plugin's worker is recycled (bounds memory a plugin leaks across calls). */
export const CALLS_PER_WORKER = 100_000;

export type LoadedAdmissionPlugin =
  | { builtIn: true; name: string; factory: BuiltInAdmissionFactory }
  | {
    builtIn: false;
    /** The module path from the flag (loaded in the plugin's workers), or a baked plugin's name. */
    name: string;
    /** A baked plugin's factory; none for a module path. */
    factory?: AdmissionPluginFactory;
  };

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
  /** Told of every refusal by a custom plugin (the server records it as an Event). */
  onViolation?(violation: Violation): void;
}

export async function buildAdmissionChain(plugins: readonly LoadedAdmissionPlugin[], services: AdmissionServices): Promise<AdmissionChain> {
  const metrics = new AdmissionMetrics(services.metricsRegistry);
  const built: AdmissionPlugin[] = [];
  const actions = new Map<AdmissionPlugin, readonly ValidationAction[]>();
  try {
    for (const plugin of plugins) {
      const log = pluginLogger(`admission ${plugin.name}`);
      const shared = { config: services.config, client: services.client, log };
      // A custom plugin's section is found by its path as given or by its file name without extension.
      const section = services.sections.get(plugin.name) ??
        (plugin.builtIn ? undefined : services.sections.get(basename(plugin.name, extname(plugin.name))));
      try {
        if (plugin.builtIn) {
          built.push(
            await plugin.factory({
              ...shared,
              registry: services.registry,
              catalog: services.catalog,
              metricsRegistry: services.metricsRegistry,
              authorizer: services.authorizer,
              pluginConfig: section?.configuration,
            }),
          );
        } else {
          const enforcement = readValidationActions(section?.configuration, section?.source ?? "");
          const custom = plugin.factory
            ? await plugin.factory({ ...shared, pluginConfig: enforcement.pluginConfig })
            : await startIsolated(plugin.name, { ...shared, pluginConfig: enforcement.pluginConfig }, metrics);
          built.push(custom);
          actions.set(custom, enforcement.actions);
        }
      } catch (error) {
        // A configuration the plugin refuses is reported with the file and field it came from.
        if (section && error instanceof Error && error.name === "ConfigFileError" && !error.message.startsWith(section.source)) {
          throw new ConfigFileError(`${section.source}: ${error.message}`, { cause: error });
        }
        throw error;
      }
    }
  } catch (error) {
    for (const plugin of built) plugin.close?.();
    throw error;
  }
  return new AdmissionChain(built, { metrics, actions, onViolation: services.onViolation });
}

/** A plugin module in its pool of workers, reloaded when its file changes. */
async function startIsolated(
  path: string,
  context: { config: ServerConfig; client: ReadOnlyClient; log: PluginLogger; pluginConfig: unknown },
  metrics: AdmissionMetrics,
): Promise<IsolatedPlugin> {
  const start = () =>
    WorkerPool.start({
      ...context,
      path,
      size: WORKERS_PER_PLUGIN,
      recycleAfterCalls: CALLS_PER_WORKER,
      onReplaced: (reason) => metrics.workerReplaced(isolated.name, reason),
    });
  const isolated = new IsolatedPlugin(await start());
  isolated.onClose(reloadOnChange(isolated, path, start, { log: context.log, onFailure: (name) => metrics.reloadFailed(name) }));
  return isolated;
}
