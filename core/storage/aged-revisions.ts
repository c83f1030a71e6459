/**
 * The periodic loop the compactor and TTL expiry share: each round samples (time, current revision) and hands on
 * the newest sampled revision that is at least `ageMs` old, as etcd's periodic compactor picks its revision. Rounds
 * never overlap, and the timer never keeps the process alive.
 */
import type { Storage } from "./storage.ts";

export interface AgedRevisionLoop {
  stop(): void;
  /** Runs one round now (also what the timer does). */
  tick(): Promise<void>;
}

export interface AgedRevisionOptions {
  ageMs: number;
  intervalMs: number;
  now?: () => number;
  /** Told when a round fails (the next round retries). */
  onError: (error: unknown) => void;
  /** Gets the newest revision whose sample is at least ageMs old, when there is one. */
  act: (revision: number) => Promise<void>;
}

/** setInterval's longest delay; a longer one is taken as 1 ms (Node's TimeoutOverflowWarning), a busy loop. */
const LONGEST_TIMER_MS = 2 ** 31 - 1;

export function everyAgedRevision(storage: Pick<Storage, "currentRevision">, options: AgedRevisionOptions): AgedRevisionLoop {
  const { ageMs, now = Date.now, onError, act } = options;
  // The first sample is taken at the start, so the first round one interval later can already act on it.
  const samples: { time: number; revision: number }[] = [{ time: now(), revision: storage.currentRevision() }];
  let running: Promise<void> | undefined;

  async function round(): Promise<void> {
    const time = now();
    samples.push({ time, revision: storage.currentRevision() });
    let aged: number | undefined;
    while (samples.length > 0 && samples[0]!.time <= time - ageMs) aged = samples.shift()!.revision;
    if (aged !== undefined) await act(aged);
  }

  function tick(): Promise<void> {
    running ??= round().catch(onError).finally(() => (running = undefined));
    return running;
  }

  const timer = setInterval(tick, Math.min(options.intervalMs, LONGEST_TIMER_MS));
  (timer as { unref?: () => void }).unref?.();
  return { stop: () => clearInterval(timer), tick };
}
