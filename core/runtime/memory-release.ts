/**
 * Gives memory back after a burst. JavaScriptCore collects the full heap lazily, and the allocator keeps the pages of
 * what it frees until a full collection: after 10,000 creates the process stayed ~50 MB above what it holds. Go's
 * runtime, which kube-apiserver relies on, bounds the same thing with a forced collection (forcegcperiod) and a
 * scavenger that returns free pages. Here a cheap check (the resident size) runs every `intervalMs` and asks
 * ReleaseTrigger whether a full collection is due, so an idle server that gave its memory back is left alone and a
 * busy one pays one collection per `growthBytes` of growth, not one per interval.
 */
import process from "node:process";

export interface MemoryRelease {
  stop(): void;
}

type FullCollection = () => void;

/** Bun's synchronous full collection; under Deno only with --v8-flags=--expose-gc, otherwise nothing to call. */
function fullCollection(): FullCollection | undefined {
  const runtime = globalThis as { Bun?: { gc(force: boolean): void }; gc?: () => void };
  if (runtime.Bun) return () => runtime.Bun!.gc(true);
  return runtime.gc;
}

/**
 * Decides, from the resident size at each check, when a full collection is worth its pause: during a burst once
 * the process grew by `growthBytes` since the last collection, and after one, once the size stopped growing with a
 * quarter of that still above the last collection (what a burst leaves behind until the collector runs).
 */
export class ReleaseTrigger {
  readonly #growthBytes: number;
  #mark: number;
  #previous: number;

  constructor(growthBytes: number, residentBytes: number) {
    this.#growthBytes = growthBytes;
    this.#mark = residentBytes;
    this.#previous = residentBytes;
  }

  due(residentBytes: number): boolean {
    const grown = residentBytes - this.#mark;
    const settled = residentBytes - this.#previous < this.#growthBytes / 32;
    this.#previous = residentBytes;
    if (grown >= this.#growthBytes || (settled && grown >= this.#growthBytes / 4)) return true;
    this.#mark = Math.min(this.#mark, residentBytes);
    return false;
  }

  collected(residentBytes: number): void {
    this.#mark = residentBytes;
    this.#previous = residentBytes;
  }
}

export function startMemoryRelease(options: { intervalMs: number; growthBytes: number }): MemoryRelease {
  const collect = fullCollection();
  if (!collect) return { stop: () => {} };
  const residentBytes = () => process.memoryUsage.rss();
  const trigger = new ReleaseTrigger(options.growthBytes, residentBytes());
  const timer = setInterval(() => {
    if (!trigger.due(residentBytes())) return;
    collect();
    trigger.collected(residentBytes());
  }, options.intervalMs);
  // Never what keeps the process alive.
  (timer as { unref?: () => void }).unref?.();
  return { stop: () => clearInterval(timer) };
}
