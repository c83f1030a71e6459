/**
 * Turns for long CPU-bound work (decoding and encoding large lists): each piece of such work waits for its
 * turn, and at most one piece runs per event-loop iteration, so I/O — health checks, watch keep-alives, other
 * clients — is served between pieces however many large requests are running.
 */
import { setImmediate } from "node:timers";

const waiting: (() => void)[] = [];
let scheduled = false;

function releaseNext(): void {
  scheduled = false;
  waiting.shift()?.();
  // Scheduled from inside the check phase, the next release runs after the next poll for I/O.
  if (waiting.length > 0) schedule();
}

function schedule(): void {
  if (scheduled) return;
  scheduled = true;
  setImmediate(releaseNext);
}

/** Resolves when it is this caller's turn to run one bounded piece of work. */
export function takeTurn(): Promise<void> {
  return new Promise((resolve) => {
    waiting.push(resolve);
    schedule();
  });
}
