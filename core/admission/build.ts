/**
 * Builds the admission chain from loaded plugins: each gets its logger, client and configuration section.
 * Built-in plugins run in-process; a custom plugin (a module path) runs in its own pool of workers
 * (isolation/), with the validationActions of its section, and is reloaded when its file changes.
 */
import { basename, extname } from "node:path";
import { pluginLogger } from "../auth/plugin-context.ts";
import type { ReadOnlyClient } from "../auth/read-only-client.ts";
import type { Authorizer } from "../auth/authorizer.ts";
import type { Catalog } from "../registry/catalog.ts";
import type { Registry } from "../registry/registry.ts";
import type { Registry as MetricsRegistry } from "prom-client";
import type { ServerConfig } from "../server/flags.ts";
import { ConfigFileError } from "../config/mod.ts";
import { AdmissionChain } from "./chain.ts";
import type { PluginConfigSection } from "./config-file.ts";
import { readValidationActions, type ValidationAction } from "./enforcement.ts";
import { IsolatedPlugin } from "./isolation/isolated-plugin.ts";
import { WorkerPool } from "./isolation/pool.ts";
import { reloadOnChange } from "./isolation/reload.ts";
import { AdmissionMetrics } from "./metrics.ts";
import type { AdmissionPlugin, BuiltInAdmissionFactory } from "./types.ts";
import { violationEventRecorder } from "./violation-events.ts";

/** Workers per custom plugin: a call stuck in one leaves the other serving. */
export const WORKERS_PER_PLUGIN = 2;
/** Calls after which a custom plugin's worker is recycled (bounds memory a plugin leaks across calls). */
export const CALLS_PER_WORKER = 100_000;

export type LoadedAdmissionPlugin =
  | { builtIn: true; name: string; factory: BuiltInAdmissionFactory }
  | { builtIn: false; /** The module path from the flag; the module is loaded in the plugin's workers. */ name: string };

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
          const start = () =>
            WorkerPool.start({
              ...shared,
              path: plugin.name,
              pluginConfig: enforcement.pluginConfig,
              size: WORKERS_PER_PLUGIN,
              recycleAfterCalls: CALLS_PER_WORKER,
              onReplaced: (reason) => metrics.workerReplaced(isolated.name, reason),
            });
          const isolated = new IsolatedPlugin(await start());
          isolated.onClose(reloadOnChange(isolated, plugin.name, start, { log, onFailure: (name) => metrics.reloadFailed(name) }));
          built.push(isolated);
          actions.set(isolated, enforcement.actions);
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
  const onViolation = violationEventRecorder(services.registry, services.catalog, pluginLogger("admission"));
  return new AdmissionChain(built, { metrics, actions, onViolation });
}
