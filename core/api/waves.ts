/**
 * Waves: requests that arrive in one event-loop iteration (one poll for I/O) go on together from the point where
 * each joins the wave, in the check phase after that poll. Each request's path is long (decode, admission,
 * managedFields, validation, encoding) and every step awaits, so requests that resume together pass each step one
 * after the other, and each step's code and data are still in the processor's caches for the next request. Started
 * one by one, as the listener hands them over from each socket's read, every request runs its whole path alone
 * and finds the caches holding the previous request's other steps. Joining a wave took ~40% off a create's
 * main-thread time over TLS (bench/profiles/create-path.md, twelfth session).
 */
import { setImmediate } from "node:timers";

let wave: Promise<void> | undefined;

function startWave(resolve: () => void): void {
  setImmediate(() => {
    wave = undefined;
    resolve();
  });
}

/** Resolves in the check phase of this event-loop iteration, together with every other caller of this iteration. */
export function joinWave(): Promise<void> {
  wave ??= new Promise(startWave);
  return wave;
}
