/**
 * --encryption-provider-config-automatic-reload: the configuration file is checked for changes every second and a
 * changed, valid file replaces the providers at once; an invalid one leaves the running providers in place, is
 * logged and counted, as kube's encryption configuration controller does. Replaced KMS plugin connections are
 * closed after a grace period, so reads and writes already under way finish.
 */
import { unwatchFile, watchFile } from "node:fs";
import { type EncryptionPlan, readEncryptionConfiguration } from "./config.ts";
import type { EncryptionMetrics } from "./metrics.ts";
import type { KmsPluginImporter } from "./kms/plugin-module.ts";

export interface EncryptionHealthCheck {
  name: string;
  check: () => Promise<void>;
}

export interface EncryptionConfigSource {
  /** The providers in force now. */
  current(): EncryptionPlan;
  /** kube's KMS health checks: kms-provider-<i> each, or one kms-providers check when reloading or on KMS v2 only. */
  healthChecks(): EncryptionHealthCheck[];
  stop(): void;
}

const POLL_MS = 1000;
const CLOSE_GRACE_MS = 60_000;

/** kube's kmsHealthChecker: every probe, failures joined as `<name>: <error>`. */
function combined(plan: () => EncryptionPlan): EncryptionHealthCheck {
  return {
    name: "kms-providers",
    async check() {
      const probes = plan().kmsProbes;
      const outcomes = await Promise.allSettled(probes.map((probe) => probe()));
      const errors = outcomes.flatMap((outcome, i) =>
        outcome.status === "rejected" ? [`kms-provider-${i}: ${(outcome.reason as Error).message}`] : []
      );
      if (errors.length > 0) throw new Error(errors.length === 1 ? errors[0] : `[${errors.join(", ")}]`);
    },
  };
}

export async function encryptionConfigSource(
  path: string,
  options: { reload: boolean; metrics?: EncryptionMetrics; log: (line: string) => void; importKmsPlugin?: KmsPluginImporter },
): Promise<EncryptionConfigSource> {
  const read = () =>
    readEncryptionConfiguration(path, {
      record: options.metrics?.recordTransformation,
      reload: options.reload,
      importKmsPlugin: options.importKmsPlugin,
    });
  let plan = await read();
  const healthChecks = (): EncryptionHealthCheck[] => {
    if (options.reload || plan.onlyKmsV2) return [combined(() => plan)];
    return plan.kmsProbes.map((probe, i) => ({ name: `kms-provider-${i}`, check: probe }));
  };
  if (!options.reload) return { current: () => plan, healthChecks, stop: () => plan.close() };
  const timers = new Set<ReturnType<typeof setTimeout>>();
  const onChange = async () => {
    try {
      const previous = plan;
      plan = await read();
      const timer = setTimeout(() => {
        timers.delete(timer);
        previous.close();
      }, CLOSE_GRACE_MS);
      timer.unref?.();
      timers.add(timer);
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
  return {
    current: () => plan,
    healthChecks,
    stop: () => {
      unwatchFile(path, onChange);
      for (const timer of timers) clearTimeout(timer);
      plan.close();
    },
  };
}
