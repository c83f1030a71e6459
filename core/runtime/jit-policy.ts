/**
 * The JIT policy of the compiled binary. compile.sh builds it with JavaScriptCore's tier-up thresholds scaled up
 * (`--compile-jit-policy`), so code that runs once or now and then (start-up: catalog, schemas, bootstrap,
 * certificates; an idle server's lease renewals and resyncs) stays in the interpreter: the optimizing JITs' code
 * and profiling data for it would stay resident for the life of the process (13-14 MB of an idle server's RSS,
 * bench/profiles/memory.md). Once the process is busy, the normal thresholds come back, so the request path is
 * compiled as usual. Run from source, or under Deno, there is no scale to undo and nothing here does anything.
 */
import { cpuShareSampler } from "./cpu-share.ts";

type SetJITPolicy = (scale: number) => void;

function jitPolicySetter(): SetJITPolicy | undefined {
  const unsafe = (globalThis as { Bun?: { unsafe?: { setJITPolicy?: SetJITPolicy } } }).Bun?.unsafe;
  return unsafe?.setJITPolicy ? (scale) => unsafe.setJITPolicy!(scale) : undefined;
}

/** JavaScriptCore's own thresholds, for a thread whose code runs often from its start (a plugin worker). */
export function useNormalJITPolicy(): void {
  jitPolicySetter()?.(1);
}

export interface LoadWatch {
  stop(): void;
}

/**
 * Calls `onBusy` once, at the first check that finds the process used at least `busyShare` of a core since the
 * previous check, then stops checking. `sample` answers that share (cpu-share.ts); tests pass their own.
 */
export function watchForLoad(
  onBusy: () => void,
  options: { intervalMs: number; busyShare: number; sample?: () => number },
): LoadWatch {
  const sample = options.sample ?? cpuShareSampler();
  const timer = setInterval(() => {
    if (sample() < options.busyShare) return;
    clearInterval(timer);
    onBusy();
  }, options.intervalMs);
  // Never what keeps the process alive.
  (timer as { unref?: () => void }).unref?.();
  return { stop: () => clearInterval(timer) };
}

/** The normal JIT policy from the first second the server spends a quarter of a core or more (idle: 1-3%, the
 * second after start-up 5-11%, one client creating objects one after another ~60%). */
export function normalJITPolicyUnderLoad(): LoadWatch {
  const setJITPolicy = jitPolicySetter();
  if (!setJITPolicy) return { stop: () => {} };
  return watchForLoad(() => setJITPolicy(1), { intervalMs: 1_000, busyShare: 0.25 });
}
