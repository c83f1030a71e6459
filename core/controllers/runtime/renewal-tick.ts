/**
 * Heartbeats that share a tick share a commit: every renewal of one period runs from one timer, in the same turn
 * of the event loop, so their writes reach the store's group commit together and become one durable transaction
 * instead of one each (the simulated kubelets' node Leases and the apiserver identity Lease all renew every 10 s).
 * Each keeps its period; only the phase is shared, so a renewal is never later than its own timer would have made it.
 */
import { logger } from "../../log/mod.ts";

const log = logger("controllers");

interface Tick {
  timer: ReturnType<typeof setInterval>;
  renewals: Set<() => void>;
}

const ticks = new Map<number, Tick>();

/** Calls `renew` every `periodMs` together with every other renewal of that period; answers the unsubscribe. */
export function onRenewalTick(periodMs: number, renew: () => void): () => void {
  let tick = ticks.get(periodMs);
  if (!tick) {
    const renewals = new Set<() => void>();
    const timer = setInterval(() => {
      for (const each of renewals) {
        try {
          each();
        } catch (error) {
          log.error("a renewal failed", error);
        }
      }
    }, periodMs);
    // Heartbeats never keep the process alive on their own.
    (timer as { unref?: () => void }).unref?.();
    tick = { timer, renewals };
    ticks.set(periodMs, tick);
  }
  const entry = () => renew();
  tick.renewals.add(entry);
  const shared = tick;
  return () => {
    shared.renewals.delete(entry);
    if (shared.renewals.size > 0 || ticks.get(periodMs) !== shared) return;
    clearInterval(shared.timer);
    ticks.delete(periodMs);
  };
}
