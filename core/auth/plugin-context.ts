/** What every plugin factory (authenticator, authorizer, admission) receives from the server. */
import type { ServerConfig } from "../config/mod.ts";
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

export function pluginLogger(name: string): PluginLogger {
  const line = (level: string, message: string) => console.error(`kubun: ${level} [${name}] ${message}`);
  return { info: (m) => line("info", m), warn: (m) => line("warn", m), error: (m) => line("error", m) };
}
