/**
 * Periodic compaction that keeps at least `historyMs` of event history (kube's
 * --watch-cache-history window): each round samples (time, current revision) and compacts to the
 * newest sample that is at least `historyMs` old, so every event after that sample is kept.
 * Uses only the Storage contract, so it works for any backend.
 */
import type { Storage } from "./storage.ts";
import { logger } from "../log/mod.ts";

const log = logger("compactor");

export interface CompactorOptions {
  historyMs: number;
  /** How often to sample and compact; default historyMs / 5, between 1s and 60s. */
  intervalMs?: number;
  now?: () => number;
  /** Told when a compaction fails (the next round retries); default the log. */
  onError?: (error: unknown) => void;
}

export interface Compactor {
  stop(): void;
  /** Runs one round now (also what the timer does). */
  tick(): Promise<void>;
}

interface Sample {
  time: number;
  revision: number;
}

export function startCompactor(storage: Storage, options: CompactorOptions): Compactor {
  const { historyMs, now = Date.now, onError = (error) => log.error("compaction failed", error) } = options;
  const intervalMs = options.intervalMs ?? Math.min(60_000, Math.max(1_000, historyMs / 5));
  const samples: Sample[] = [];
  let running: Promise<void> | undefined;

  async function round(): Promise<void> {
    const time = now();
    samples.push({ time, revision: storage.currentRevision() });
    let target: Sample | undefined;
    while (samples.length > 0 && samples[0]!.time <= time - historyMs) target = samples.shift();
    if (target && target.revision > storage.compactedRevision()) await storage.compact(target.revision);
  }

  function tick(): Promise<void> {
    running ??= round().catch(onError).finally(() => (running = undefined));
    return running;
  }

  const timer = setInterval(tick, intervalMs);
  // Never keep the process alive just to compact.
  (timer as { unref?: () => void }).unref?.();
  return { stop: () => clearInterval(timer), tick };
}
