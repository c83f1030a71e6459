/**
 * Gives memory back after a burst. JavaScriptCore collects the full heap lazily, and the allocator keeps the pages of
 * what it frees until a full collection: after 10,000 creates the process stayed ~50 MB above what it holds. Go's
 * runtime, which kube-apiserver relies on, bounds the same thing with a forced collection (forcegcperiod) and a
 * scavenger that returns free pages. Here a cheap check (resident size and CPU time) runs every `intervalMs` and
 * asks ReleaseTrigger whether a full collection is due, so an idle server that gave its memory back is left alone
 * and a busy one pays one collection per step of growth, not one per interval. The idle release also drops the
 * burst's compiled code (releaser).
 */
import process from "node:process";
import { cpuShareSampler } from "./cpu-share.ts";

export interface MemoryRelease {
  stop(): void;
}

/** Why a collection is due: the process grew during a burst, or went idle with what a burst left behind. */
export type ReleaseReason = "growth" | "idle";

type Release = (reason: ReleaseReason) => void;

/**
 * Bun: a synchronous full collection during a burst. Once idle, `Bun.shrink()`: JavaScriptCore's
 * shrinkFootprintWhenIdle, a full collection that also drops the compiled code of functions not running then; the
 * JIT's code and profiles of a burst (~20 MB after 10,000 creates) are otherwise kept for good, and the next burst
 * compiles what it runs again. Deno: a full collection with --v8-flags=--expose-gc, otherwise nothing to call.
 */
function releaser(): Release | undefined {
  const runtime = globalThis as { Bun?: { gc(force: boolean): void; shrink?: () => void }; gc?: () => void };
  const bun = runtime.Bun;
  if (bun) return (reason) => reason === "idle" && bun.shrink ? bun.shrink() : bun.gc(true);
  const gc = runtime.gc;
  return gc && (() => gc());
}

/** Below this share of one core over an interval the process counts as idle. */
const IDLE_CPU_SHARE = 0.05;

/**
 * During a burst the process may grow by this share of its size after the last collection (at least `growthBytes`)
 * before the next. A full collection marks everything live, so its pause grows with what the store holds: a fixed
 * step made a create's share of them grow with the number of objects (~45 ms each at 110-190 MB, three in 10 s of
 * 64-client creates, each giving back 2-8 MB). Go's pacer, which kube-apiserver relies on, sets its heap goal the same
 * way, in proportion to the live heap (GOGC).
 */
const GROWTH_SHARE = 0.5;

/**
 * Decides, at each check, when a full collection is worth its pause: during a burst once the process grew by a step
 * (GROWTH_SHARE) since the last collection, and once it is idle again with a quarter of `growthBytes` still above
 * where the last idle collection (or the start) left it. Collections during a burst do not move that idle mark, as the
 * burst's own live data held the size up then.
 */
export class ReleaseTrigger {
  readonly #growthBytes: number;
  #growthMark: number;
  #idleMark: number;

  constructor(growthBytes: number, residentBytes: number) {
    this.#growthBytes = growthBytes;
    this.#growthMark = residentBytes;
    this.#idleMark = residentBytes;
  }

  /** `cpuShare`: the CPU time used since the last check over the time passed (1 = one core busy throughout). */
  due(residentBytes: number, cpuShare: number): ReleaseReason | undefined {
    if (residentBytes >= this.#growthMark + Math.max(this.#growthBytes, this.#growthMark * GROWTH_SHARE)) return "growth";
    if (cpuShare < IDLE_CPU_SHARE && residentBytes >= this.#idleMark + this.#growthBytes / 4) return "idle";
    // Marks follow the process down, so growth counts from the lowest size seen.
    this.#growthMark = Math.min(this.#growthMark, residentBytes);
    this.#idleMark = Math.min(this.#idleMark, residentBytes);
    return undefined;
  }

  collected(reason: ReleaseReason, residentBytes: number): void {
    this.#growthMark = residentBytes;
    if (reason === "idle") this.#idleMark = residentBytes;
  }
}

/**
 * `onIdleRelease`: told at each idle release, right after the collection and before the resident size is read again,
 * so what it gives back counts toward the next mark.
 */
export function startMemoryRelease(options: { intervalMs: number; growthBytes: number; onIdleRelease?: () => void }): MemoryRelease {
  const release = releaser();
  if (!release) return { stop: () => {} };
  const residentBytes = () => process.memoryUsage.rss();
  const trigger = new ReleaseTrigger(options.growthBytes, residentBytes());
  const cpuShare = cpuShareSampler();
  const timer = setInterval(() => {
    const reason = trigger.due(residentBytes(), cpuShare());
    if (reason) {
      release(reason);
      if (reason === "idle") options.onIdleRelease?.();
      trigger.collected(reason, residentBytes());
    }
  }, options.intervalMs);
  // Never what keeps the process alive.
  (timer as { unref?: () => void }).unref?.();
  return { stop: () => clearInterval(timer) };
}
