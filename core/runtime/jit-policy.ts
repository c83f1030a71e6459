/**
 * The JIT policy of the compiled binary. compile.sh builds it with JavaScriptCore's tier-up thresholds scaled up
 * (`--compile-jit-policy`), so code that runs once or now and then (start-up: catalog, schemas, bootstrap,
 * certificates; an idle server's lease renewals and resyncs) stays in the interpreter: the optimizing JITs' code
 * and profiling data for it would stay resident for the life of the process (13-14 MB of an idle server's RSS,
 * bench/profiles/memory.md). While the process is busy the normal thresholds apply, so the request path is
 * compiled as usual. Run from source, or under Deno, there is no scale and nothing here does anything.
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

interface LoadWatch {
  stop(): void;
}

/**
 * Calls `onBusy` once, at the first check that finds the process used at least `busyShare` of a core since the
 * previous check, then stops checking. `sample` answers that share (cpu-share.ts by default).
 */
function watchForLoad(
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

/** The tier-up threshold scale compile.sh builds the binary with (it reads this line). */
export const START_UP_JIT_POLICY = 1000;

export interface JITPolicy {
  /** The process is idle again after a burst (memory-release.ts): what runs from now on waits for load again. */
  idle(): void;
  stop(): void;
}

/** A quarter of a core: idle 1-3%, the second after start-up 5-11%, one client creating objects in turn ~60%. */
const BUSY_SHARE = 0.25;
/**
 * How often the load is checked. A burst runs at the start-up scale until the check after it began, interpreted, and
 * the compiled path is gone again after each idle release: with 1 s checks the first second of a burst after a pause
 * cost 232 µs of main-thread CPU per /healthz against 169-177 µs with 250 ms checks or without the policy at all
 * (bench/profiles/request-path.md). Idle RSS is the same with either.
 */
const CHECK_INTERVAL_MS = 250;

/**
 * The server's JIT policy: the start-up scale until the first check (`CHECK_INTERVAL_MS`) that finds the process
 * spent `BUSY_SHARE` of a core or more since the one before, then JavaScriptCore's normal thresholds until
 * `idle()`, which goes back to the start-up scale and waits for load again. `setJITPolicy` and `sample` are for tests; by default Bun's, and under Deno nothing to do.
 */
export function adaptiveJITPolicy(
  options: { setJITPolicy?: SetJITPolicy; sample?: () => number; intervalMs?: number } = {},
): JITPolicy {
  const setJITPolicy = options.setJITPolicy ?? jitPolicySetter();
  if (!setJITPolicy) return { idle: () => {}, stop: () => {} };
  let watch: LoadWatch | undefined;
  const waitForLoad = () => {
    const onBusy = () => {
      watch = undefined;
      setJITPolicy(1);
    };
    watch = watchForLoad(onBusy, { intervalMs: options.intervalMs ?? CHECK_INTERVAL_MS, busyShare: BUSY_SHARE, sample: options.sample });
  };
  waitForLoad();
  return {
    idle: () => {
      if (watch) return;
      setJITPolicy(START_UP_JIT_POLICY);
      waitForLoad();
    },
    stop: () => watch?.stop(),
  };
}
