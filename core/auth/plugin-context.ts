/** What every plugin factory (authenticator, authorizer, admission) receives from the server. */
import type { ServerConfig } from "../config/mod.ts";
import { logger } from "../log/mod.ts";
import type { ReadOnlyClient } from "../api/client.ts";

export interface PluginLogger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export interface PluginContext {
  /** The server's parsed flags. */
  config: Readonly<ServerConfig>;
  client: ReadOnlyClient;
  log: PluginLogger;
}

/** A plugin's lines go to the server's logger under the plugin's name. */
export function pluginLogger(name: string): PluginLogger {
  const log = logger(`plugin/${name}`);
  return { info: (m) => log.info(m), warn: (m) => log.warning(m), error: (m) => log.error(m) };
}
