/**
 * --encryption-provider-config-automatic-reload: the configuration file is checked for changes every second and a
 * changed, valid file replaces the providers at once; an invalid one leaves the running providers in place, is
 * logged and counted, as kube's encryption configuration controller does.
 */
import { unwatchFile, watchFile } from "node:fs";
import { type EncryptionPlan, readEncryptionConfiguration } from "./config.ts";
import type { EncryptionMetrics } from "./metrics.ts";

export interface EncryptionConfigSource {
  /** The providers in force now. */
  current(): EncryptionPlan;
  stop(): void;
}

const POLL_MS = 1000;

export function encryptionConfigSource(
  path: string,
  options: { reload: boolean; metrics?: EncryptionMetrics; log: (line: string) => void },
): EncryptionConfigSource {
  let plan = readEncryptionConfiguration(path, options.metrics?.recordTransformation);
  if (!options.reload) return { current: () => plan, stop: () => {} };
  const onChange = () => {
    try {
      plan = readEncryptionConfiguration(path, options.metrics?.recordTransformation);
      options.metrics?.recordReload(true);
      options.log(`reloaded the encryption configuration from ${path}`);
    } catch (error) {
      options.metrics?.recordReload(false);
      options.log(
        `the changed encryption configuration was not loaded, the previous one stays in force: ${(error as Error).message}`,
      );
    }
  };
  watchFile(path, { interval: POLL_MS, persistent: false }, onChange);
  return { current: () => plan, stop: () => unwatchFile(path, onChange) };
}
