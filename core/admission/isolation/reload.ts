/**
 * Hot reload of a custom plugin: its file is polled for changes (like the encryption configuration's automatic
 * reload), a changed file is loaded into a fresh pool of workers, and only a pool that loaded is swapped in;
 * one that fails leaves the running version in place, logged and counted.
 */
import { unwatchFile, watchFile } from "node:fs";
import { resolve } from "node:path";
import type { PluginLogger } from "../../auth/plugin-context.ts";
import type { IsolatedPlugin } from "./isolated-plugin.ts";
import type { WorkerPool } from "./pool.ts";

const POLL_MS = 500;

export interface ReloadHooks {
  log: PluginLogger;
  /** Counts a failed reload under the plugin's (running) name. */
  onFailure(name: string): void;
}

/** Reloads `plugin` from `path` whenever the file changes; returns the function that stops watching. */
export function reloadOnChange(plugin: IsolatedPlugin, path: string, start: () => Promise<WorkerPool>, hooks: ReloadHooks): () => void {
  const file = resolve(path);
  // Changes are handled one at a time: a change during a reload is picked up by the next one.
  let reloads = Promise.resolve();
  const reload = async () => {
    try {
      const pool = await start();
      plugin.swap(pool);
      hooks.log.info(`reloaded ${file}`);
    } catch (error) {
      hooks.onFailure(plugin.name);
      hooks.log.error(`the changed ${file} did not load, the previous version stays active: ${(error as Error).message}`);
    }
  };
  const onChange = (current: { mtimeMs: number }, previous: { mtimeMs: number }) => {
    if (current.mtimeMs === previous.mtimeMs || current.mtimeMs === 0) return;
    reloads = reloads.then(reload);
  };
  watchFile(file, { interval: POLL_MS, persistent: false }, onChange);
  return () => unwatchFile(file, onChange);
}
