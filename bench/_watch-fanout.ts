/**
 * Watch fan-out load (issue 16): `watchers` watches, each on its own TLS connection, then `events` creates sent at a
 * fixed rate by one writer; every event's arrival at every watcher is timed from its write's acknowledgement. This
 * process is the load generator; the server under test is another process.
 */
import { type OpenWatch, openWatch, type WatchTarget } from "./_watch-client.ts";

export interface FanoutOptions {
  watchers: number;
  events: number;
  perSecond: number;
  /** The watched collection; a watch of it must first deliver an ADDED event for the object named "seed". */
  collection: string;
  /** Sends create number `i` (an object named `ev-<i>`); resolves when the server acknowledged it. */
  write(i: number): Promise<void>;
  /** The server's CPU time so far in milliseconds; read around the writes and their delivery only. */
  serverCpuMs(): number;
}

export interface FanoutResult {
  /** Milliseconds from each write's acknowledgement to each watcher receiving its event (0 when it came first), ascending. */
  latencies: Float64Array;
  /** Milliseconds from sending each write to each watcher receiving its event, ascending. */
  sinceSent: Float64Array;
  delivered: number;
  expected: number;
  /** Server CPU time from the first write until every event arrived (or the wait for them ended). */
  serverCpuMs: number;
}

const CONNECT_BATCH = 50;
const SETTLE_MS = 30_000;

export async function runFanout(target: WatchTarget, options: FanoutOptions): Promise<FanoutResult> {
  const { watchers, events } = options;
  const arrivals = new Float64Array(watchers * events).fill(NaN);
  let delivered = 0;
  let seeded = 0;
  let allSeeded!: () => void;
  const seeding = new Promise<void>((resolve) => (allSeeded = resolve));
  let allDelivered!: () => void;
  const delivering = new Promise<void>((resolve) => (allDelivered = resolve));
  const open: OpenWatch[] = [];
  try {
    for (let first = 0; first < watchers; first += CONNECT_BATCH) {
      const batch = Array.from({ length: Math.min(CONNECT_BATCH, watchers - first) }, (_, offset) => {
        const watcher = first + offset;
        const watch = openWatch(target, `${options.collection}?watch=true`, (name) => {
          if (name === "seed") {
            if (++seeded === watchers) allSeeded();
            return;
          }
          const slot = watcher * events + Number(name.slice(3));
          if (!Number.isNaN(arrivals[slot]!)) return;
          arrivals[slot] = performance.now();
          if (++delivered === watchers * events) allDelivered();
        });
        open.push(watch);
        return watch.started;
      });
      await Promise.all(batch);
    }
    await seeding;

    const acknowledged = new Float64Array(events);
    const sent = new Float64Array(events);
    const cpuBefore = options.serverCpuMs();
    const started = performance.now();
    const writes: Promise<void>[] = [];
    for (let i = 0; i < events; i++) {
      const due = started + (i * 1000) / options.perSecond;
      const wait = due - performance.now();
      if (wait > 0) await Bun.sleep(wait);
      sent[i] = performance.now();
      writes.push(options.write(i).then(() => void (acknowledged[i] = performance.now())));
    }
    await Promise.all(writes);
    await Promise.race([delivering, Bun.sleep(SETTLE_MS)]);
    const serverCpuMs = options.serverCpuMs() - cpuBefore;

    const latencies = new Float64Array(delivered);
    const sinceSent = new Float64Array(delivered);
    let n = 0;
    for (let slot = 0; slot < arrivals.length; slot++) {
      const arrival = arrivals[slot]!;
      if (Number.isNaN(arrival)) continue;
      latencies[n] = Math.max(0, arrival - acknowledged[slot % events]!);
      sinceSent[n++] = arrival - sent[slot % events]!;
    }
    return { latencies: latencies.sort(), sinceSent: sinceSent.sort(), delivered, expected: watchers * events, serverCpuMs };
  } finally {
    for (const watch of open) watch.close();
  }
}

/** The p-th percentile of ascending samples. */
export function sortedPercentile(sorted: Float64Array, p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}
